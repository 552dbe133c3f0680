#!/usr/bin/env bash
# Installs what the queue-mode tier (test/e2e-queue/, driver e2e/lib/services.cts + e2e/lib/queue-n8n.cts) needs from
# Debian's packages: PostgreSQL (initdb, postgres, psql) and redis-server.
#
# - Warm (both present): does nothing, in a few milliseconds.
# - Cold: `apt-get update`, then a non-interactive `apt-get install --no-install-recommends`. Needs root (or sudo).
# - No system service is started or relied on: the tier runs its own Postgres and Redis as child processes on free
#   loopback ports, in temp folders. While installing, a policy-rc.d that refuses every service start is put in place
#   (unless one exists, as in Docker images); should a package's post-install have started a cluster or a server
#   anyway, it is stopped.
# - Prints, as its only stdout line, the folder of the PostgreSQL binaries (/usr/lib/postgresql/<version>/bin).
set -euo pipefail
# shellcheck source=scripts/quiet.sh
source "$(dirname "${BASH_SOURCE[0]}")/quiet.sh"

log() { echo "[queue-services] $*" >&2; }

pg_bin() { # the newest /usr/lib/postgresql/<version>/bin that holds initdb and postgres
  local dir best=""
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V); do
    [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ] && best="$dir"
  done
  echo "$best"
}

have_all() { [ -n "$(pg_bin)" ] && command -v psql >/dev/null 2>&1 && command -v redis-server >/dev/null 2>&1 && id -u postgres >/dev/null 2>&1; }

if have_all; then
  pg_bin
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    log "PostgreSQL or redis-server is missing and this is not root: run 'apt-get install -y postgresql redis-server' as root"
    exit 1
  fi
fi

START=$SECONDS
# One installer at a time (parallel test files may call this).
exec 9>"${TMPDIR:-/tmp}/keyword-com-queue-services.lock"
command -v flock >/dev/null 2>&1 && flock 9
if have_all; then pg_bin; exit 0; fi

POLICY=/usr/sbin/policy-rc.d
created_policy=false
if [ ! -e "$POLICY" ]; then
  printf '#!/bin/sh\n# put here by scripts/install-queue-services.sh while it installs: start no service\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null
  $SUDO chmod 755 "$POLICY"
  created_policy=true
fi
cleanup() { if [ "$created_policy" = true ]; then $SUDO rm -f "$POLICY"; fi; }
trap cleanup EXIT

packages=()
{ [ -n "$(pg_bin)" ] && id -u postgres >/dev/null 2>&1; } || packages+=(postgresql)
command -v psql >/dev/null 2>&1 || packages+=(postgresql-client)
command -v redis-server >/dev/null 2>&1 || packages+=(redis-server)

log "apt-get update"
run_logged apt-update $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
log "apt-get install ${packages[*]}"
run_logged apt-install $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${packages[@]}"

# A post-install that started anything anyway (no policy-rc.d honoured): stop it, the tier does not use it.
if command -v pg_lsclusters >/dev/null 2>&1; then
  pg_lsclusters --no-header 2>/dev/null | awk '$4 == "online" {print $1, $2}' | while read -r version cluster; do
    log "stopping the system cluster $version/$cluster the package started"
    $SUDO pg_ctlcluster "$version" "$cluster" stop >&2 || true
  done
fi
if [ -f /run/redis/redis-server.pid ]; then
  pid="$(cat /run/redis/redis-server.pid)"
  log "stopping the system redis-server ($pid) the package started"
  $SUDO kill "$pid" 2>/dev/null || true
fi

have_all || { log "the install finished but PostgreSQL (initdb, postgres, psql, user postgres) or redis-server is still missing"; exit 1; }
log "installed in $((SECONDS - START)) s: PostgreSQL $("$(pg_bin)/postgres" --version | awk '{print $3}'), Redis $(redis-server --version | awk '{print $3}' | sed 's/^v=//')"
pg_bin
