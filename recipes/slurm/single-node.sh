#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, from slurm.conf.in beside this
# script: what CI runs the array recipe on, and a way to try it by hand.
#   recipes/slurm/single-node.sh start   # prints the SLURM_CONF=... to export
#   recipes/slurm/single-node.sh stop    # stops what start started
# Needs root (re-runs itself with sudo) and Debian's `slurm-wlm` and `munge`.
# State, logs and the filled slurm.conf go to $HEXCERT_SLURM_STATE
# (default target/hexcert-slurm in the repository). A munged already
# answering is used as it is.
#
# It runs as root and `stop` kills the pids its state directory names, so
# that directory is refused unless it is root's own, no link, and writable
# by no one else (a fixed name in /tmp would let any user name the pids),
# and a pid is killed only when /proc says it is the daemon its file is for.
set -euo pipefail
if [[ $(id -u) != 0 ]]; then
  exec sudo --preserve-env=HEXCERT_SLURM_STATE "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
state=${HEXCERT_SLURM_STATE:-$(cd "$here/../.." && pwd)/target/hexcert-slurm}
conf=$state/slurm.conf
node=$(hostname -s)

# Refuses (exit 1) a state directory someone else could have written.
own_dir() {
  local owner mode
  if [[ -L $state ]]; then
    echo "$state is a symbolic link: refused" >&2
    exit 1
  fi
  [[ -e $state ]] || return 0
  read -r owner mode < <(stat -c '%u %a' "$state")
  if [[ ! -d $state || $owner != 0 ]] || (( 8#$mode & 8#022 )); then
    echo "$state is not a directory of root's that only root can write (owner $owner, mode $mode): refused" >&2
    exit 1
  fi
}

# A daemon removes its pid file as it exits, so the file may vanish between
# the test and the read: that is "not alive", not an error.
alive() { local pid; pid=$(cat "$1" 2>/dev/null) && [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; }

# Stops the daemon named $2 whose pid file is $1; a pid that is not that
# daemon (it exited and the pid was reused, or the file lies) is left alone.
stop_pidfile() {
  local pidfile=$1 daemon=$2
  local pid comm
  [[ -f $pidfile && ! -L $pidfile ]] || return 0
  pid=$(cat "$pidfile" 2>/dev/null) || return 0
  [[ $pid =~ ^[0-9]+$ ]] || { echo "$pidfile: \`$pid\` is not a pid: left alone" >&2; return 0; }
  comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 0
  if [[ $comm != "$daemon" ]]; then
    echo "$pidfile: pid $pid is not $daemon (it is $comm): left alone" >&2
    return 0
  fi
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 50); do alive "$pidfile" || return 0; sleep 0.2; done
  kill -9 "$pid" 2>/dev/null || true
}

start_munge() {
  if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then return; fi
  install -d -o munge -g munge -m 0755 /run/munge
  [[ -s /etc/munge/munge.key ]] || runuser -u munge -- mungekey --create
  runuser -u munge -- /usr/sbin/munged
  echo /run/munge/munged.pid > "$state/munged.ours"
  for _ in $(seq 50); do
    if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then return; fi
    sleep 0.2
  done
  echo "munged did not answer" >&2
  exit 1
}

wait_idle() {
  local said=""
  for _ in $(seq 150); do
    said=$(SLURM_CONF=$conf sinfo -h -n "$node" -o %T 2>/dev/null || true)
    case $said in
      idle*) return ;;
      drain*|down*|inval*) break ;;
    esac
    sleep 0.2
  done
  echo "the node $node is not idle (sinfo: ${said:-no answer}); logs:" >&2
  tail -n 20 "$state"/slurmctld.log "$state"/slurmd.log >&2 || true
  exit 1
}

start() {
  if alive "$state/slurmctld.pid" || alive "$state/slurmd.pid"; then
    echo "a cluster from $state is running: stop it first" >&2
    exit 1
  fi
  own_dir
  rm -rf "$state"
  mkdir -p "$(dirname "$state")"
  # Made afresh by this run, mode 700: no one else can put a pid file in it.
  mkdir -m 0700 "$state"
  mkdir "$state/ctld" "$state/d"
  local cpus memory
  cpus=$(nproc)
  memory=$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
  sed -e "s|@NODE@|$node|g" -e "s|@CPUS@|$cpus|" -e "s|@MEMORY@|$memory|" -e "s|@STATE@|$state|g" \
      -e "s|@CTLD_PORT@|${HEXCERT_SLURMCTLD_PORT:-6817}|" -e "s|@D_PORT@|${HEXCERT_SLURMD_PORT:-6818}|" \
      "$here/slurm.conf.in" > "$conf.tmp"
  mv "$conf.tmp" "$conf"
  start_munge
  slurmctld -f "$conf"
  slurmd -f "$conf"
  wait_idle
  echo "SLURM_CONF=$conf"
}

stop() {
  own_dir
  stop_pidfile "$state/slurmd.pid" slurmd
  stop_pidfile "$state/slurmctld.pid" slurmctld
  if [[ -s $state/munged.ours ]]; then
    stop_pidfile "$(cat "$state/munged.ours")" munged
    rm -f "$state/munged.ours"
  fi
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  *) echo "usage: single-node.sh start|stop" >&2; exit 2 ;;
esac
