# shellcheck shell=bash
# Sourced by env.sh (and the installers that do not source it): `run_logged <name> <command…>` runs a command with
# its output (npm's notices, apt's progress, the C compiler's warnings while n8n's sqlite3 builds) in a log file
# instead of the terminal, so that a first run prints one line per step. When the command fails, the log's last lines
# and its path are printed, and its exit status is returned.
KEYWORD_COM_CACHE="${KEYWORD_COM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-keyword-com}"

run_logged() {
  local name=$1
  shift
  local dir="$KEYWORD_COM_CACHE/logs"
  mkdir -p "$dir"
  local log
  log="$dir/$name-$(date -u +%Y%m%dT%H%M%SZ)-$$.log"
  local status=0
  "$@" >"$log" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    {
      echo "[$name] failed (exit $status): $*"
      tail -n 20 "$log" | sed 's/^/  | /'
      echo "[$name] its whole output: $log"
    } >&2
  fi
  return "$status"
}
