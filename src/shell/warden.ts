/**
 * The warden (ADR 0066, in place of ADR 0027's watchdog per session): one bash per daemon, run as
 * `bash -c WARDEN_SCRIPT amux-warden HOME GRACE PIDFILE`, started by the daemon in a Unix session of
 * its own (no hangup reaches it, `pause` does not stop it, no session's process counts it) with its
 * stdin a pipe whose other end only the daemon holds. While the daemon runs, the warden sleeps in a
 * `read` of that pipe and costs nothing; the read ends when the daemon does, however it ended (the
 * kernel closes the pipe of a killed process too). Then it does for every session of HOME what each
 * session's watchdog did (ADR 0027): it finds the sessions' panes (the `timeout` processes running
 * `bash … --rcfile HOME/sessions/ID/rc.bash`), looks once a second, with no process spawned, whether
 * each pane's process is gone or has lost its terminal (tmux closed the pane: its session, or the
 * whole server), and then sends TERM and CONT to the members of that pane's Unix session and to the
 * processes marked AMUX_SESSION_ID=ID (but those whose TMUX names another amux home's socket that has
 * a session ID), waits up to GRACE seconds, and SIGKILLs what is left. The panes that close in one
 * look are ended together, by one pass over /proc. It leaves the work to a daemon that runs again
 * (PIDFILE names a live amux process: it reaps at its start and as sessions end), and ends when no
 * pane is left to watch. Only processes started since a pane's have their environment read.
 */
export const WARDEN_SCRIPT = `home=$1 grace=$2 pidfile=$3
sock=$home/tmux.sock prefix=$home/sessions/
exec {w}<> <(:)
trap '' PIPE # its answer to a daemon that gave up waiting must not end it
cd / || exit 0
# Named so that \`ps\` shows it, and so that its own passes over /proc pass it by.
printf %s amux-warden > "/proc/$BASHPID/comm"
daemon_runs() {
  local dpid cl
  [[ -n $pidfile ]] && read -r dpid < "$pidfile" && [[ $dpid =~ ^[0-9]+$ ]] && mapfile -d '' -t cl < "/proc/$dpid/cmdline" && [[ \${cl[*]} == *amux* ]]
}
# The panes of HOME's sessions: \`timeout --foreground 0 BASH --noprofile --rcfile HOME/sessions/ID/rc.bash -i\` (ADR 0010).
declare -A leader=() since=()
scan() {
  local f line rest rc id cl
  for f in /proc/[0-9]*; do
    read -r line < "$f/stat" || continue
    [[ $line == *" (timeout) "* ]] || continue
    mapfile -d '' -t cl < "$f/cmdline" || continue
    rc=\${cl[6]-}
    [[ \${cl[5]-} == --rcfile && $rc == "$prefix"*/rc.bash ]] || continue
    id=\${rc#"$prefix"} id=\${id%/rc.bash}
    [[ $id =~ ^[0-9a-f]{8}$ ]] || continue
    rest=\${line##*) }
    set -- $rest
    leader[$id]=\${f#/proc/} since[$id]=\${20}
  done
}
# Until the daemon is gone: the read of the pipe only it holds ends then, however it ended. A daemon
# that stops says \`stop\` first and waits for the answer: the panes are known before it is gone.
scanned=
while read -r line; do
  if [[ $line == stop && -z $scanned ]]; then scan; scanned=1; printf 'ok\n'; fi
done
exec </dev/null >/dev/null 2>&1
[[ -n $scanned ]] || scan
# collect: into pids, the processes of the sessions in ids (id -> 1), whose panes are leads (pid -> id),
# started no earlier than low (stat field 22) unless they are members of a pane's Unix session.
collect() {
  local f p line rest e v t mine other
  pids=()
  for f in /proc/[0-9]*; do
    p=\${f#/proc/}
    read -r line < "$f/stat" || continue
    rest=\${line##*) }
    set -- $rest
    [[ $1 != Z && $line != *" (amux-warden) "* ]] || continue
    if [[ -n \${leads[$4]-} ]]; then pids+=("$p"); continue; fi
    (( \${20} >= low )) || continue # older than the panes: it cannot carry their sessions' marks
    mapfile -d '' -t e < "$f/environ" || continue
    mine= other=
    for v in "\${e[@]}"; do
      case $v in
        AMUX_SESSION_ID=*) v=\${v#AMUX_SESSION_ID=}; [[ $v =~ ^[0-9a-f]{8}$ && -n \${ids[$v]-} ]] && mine=$v ;;
        TMUX=?*) t=\${v#TMUX=} t=\${t%,*,*}; [[ $t != "$sock" && $t == */tmux.sock ]] && other=$t ;;
      esac
    done
    # another home's only when its socket is an amux home's with a session of this id (ADR 0027)
    if [[ -n $mine && ( -z $other || ! -d \${other%/tmux.sock}/sessions/$mine ) ]]; then pids+=("$p"); fi
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
# reap ID:LEADER:SINCE…, in a subshell of its own: the sessions whose panes closed in one look.
reap() {
  local a i
  declare -A ids=() leads=()
  low=
  for a in "$@"; do
    IFS=: read -r i l s <<< "$a"
    ids[$i]=1 leads[$l]=$i
    if [[ -z $low ]] || (( s < low )); then low=$s; fi
  done
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
}
while (( \${#leader[@]} )); do
  # A daemon runs again: it reaps these sessions as it records their ends (ADR 0027).
  daemon_runs && break
  closed=()
  for id in "\${!leader[@]}"; do
    p=\${leader[$id]}
    if read -r line < "/proc/$p/stat"; then
      rest=\${line##*) }
      set -- $rest
      [[ $1 != Z && $5 != 0 && \${20} == "\${since[$id]}" ]] && continue
    fi
    closed+=("$id:$p:\${since[$id]}")
    unset "leader[$id]"
  done
  if (( \${#closed[@]} )); then reap "\${closed[@]}" & fi
  read -r -t 1 -u "$w" _
done
wait
exit 0
`;
