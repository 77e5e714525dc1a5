/**
 * The session's watchdog (ADR 0027), a bash script run as `bash /dev/fd/3 ID SOCKET GRACE SHELL PIDFILE` by
 * the rcfile (the script on fd 3, a here-document), in a Unix session of its own (`setsid -f`): no hangup reaches it,
 * `pause` does not stop it, and it is no child of the shell. It ends the session's processes when
 * no daemon is there to: once the pane's process (LEADER: the leader of SHELL's Unix session)
 * is gone or has lost its terminal (tmux closed the pane: the tmux session or the whole server went,
 * the kernel then takes the terminal from every process of that Unix session), it sends TERM and
 * CONT (a paused process acts on it only once continued) to every process of that Unix session and
 * to every process marked AMUX_SESSION_ID=ID (but those whose TMUX names another amux home's socket
 * that has a session ID), waits up to
 * GRACE seconds, then SIGKILLs what is left. One look a second while it waits, with no process
 * spawned: reads of /proc and a `read -t` on a pipe nobody writes. When the pane is gone while a
 * daemon runs (PIDFILE names a live amux process), it leaves the reap to the daemon: a pass over
 * every process's environment in bash, at every session's end, was most of a 2-core machine's CPU
 * under churn (issue 20). Only processes started since the pane's have their environment read.
 */
export const WATCHDOG_SCRIPT = `id=$1 sock=$2 grace=$3 shell=$4 pidfile=$5
exec {w}<> <(:) </dev/null >/dev/null 2>&1
cd / || exit 0 # it holds no directory of the session's
# The leader of the shell's Unix session: the pane's process, the shell's parent, \`timeout\` (ADR 0010),
# with the terminal now. Anything else (the rcfile run outside a pane, by a test) has no pane to watch.
read -r line < "/proc/$shell/stat" || exit 0
rest=\${line##*) }
set -- $rest
leader=$4
[[ $2 == "$leader" && -n $sock ]] || exit 0
read -r line < "/proc/$leader/stat" || exit 0
comm=\${line#*(}
rest=\${line##*) }
set -- $rest
[[ \${comm%%)*} == timeout && $5 != 0 ]] || exit 0
since=\${20}
# Named so that the other sessions' watchdogs pass it by without reading its environment: after a
# \`tmux kill-server\` with no daemon, each of N watchdogs read the N-1 others' (ADR 0027).
printf %s amux-watchdog > "/proc/$BASHPID/comm"
while read -r line < "/proc/$leader/stat"; do
  rest=\${line##*) }
  set -- $rest
  [[ $1 != Z && $5 != 0 ]] || break
  read -r -t 1 -u "$w" _
done
# A daemon runs (its pid file names a live amux process): it reaps this session as it records the end.
if [[ -n $pidfile ]] && read -r dpid < "$pidfile" && [[ $dpid =~ ^[0-9]+$ ]] && mapfile -d '' -t cl < "/proc/$dpid/cmdline" && [[ \${cl[*]} == *amux* ]]; then
  exit 0
fi
collect() {
  local f p line rest e v t mine other
  pids=()
  for f in /proc/[0-9]*; do
    p=\${f#/proc/}
    [[ $p != "$BASHPID" ]] || continue
    read -r line < "$f/stat" || continue
    rest=\${line##*) }
    set -- $rest
    [[ $1 != Z && $line != *" (amux-watchdog) "* ]] || continue
    if [[ $4 == "$leader" ]]; then pids+=("$p"); continue; fi
    (( \${20} >= since )) || continue # older than the pane: it cannot carry the session's mark
    mapfile -d '' -t e < "$f/environ" || continue
    mine= other=
    for v in "\${e[@]}"; do
      case $v in
        "AMUX_SESSION_ID=$id") mine=1 ;;
        TMUX=?*) # another home's only when its socket is an amux home's with a session of this id (ADR 0027)
          t=\${v#TMUX=} t=\${t%,*,*}
          [[ $t != "$sock" && $t == */tmux.sock && -d \${t%/tmux.sock}/sessions/$id ]] && other=1 ;;
      esac
    done
    if [[ -n $mine && -z $other ]]; then pids+=("$p"); fi
  done
}
alive() {
  local p line rest left=()
  for p in "\${pids[@]}"; do
    read -r line < "/proc/$p/stat" || continue
    rest=\${line##*) }
    [[ $rest == Z* ]] || left+=("$p")
  done
  pids=("\${left[@]}")
}
collect
(( \${#pids[@]} )) || exit 0
kill -TERM "\${pids[@]}"
kill -CONT "\${pids[@]}"
for (( i = 0; i < grace * 10; i++ )); do
  read -r -t 0.1 -u "$w" _
  alive
  (( \${#pids[@]} )) || break
done
collect
(( \${#pids[@]} )) && kill -KILL "\${pids[@]}"
exit 0
`;
