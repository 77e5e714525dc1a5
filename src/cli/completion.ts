import { AmuxError } from '../errors.js';
import { writeOut } from './output.js';
import { COMPLETION_SHELLS } from './program.js';

/**
 * The scripts of `amux completion bash|zsh|fish` (README "Shell completion"; ADR 0021). Each is a
 * thin shim: it hands the words typed so far to `amux __complete` (src/cli/complete.ts), which
 * knows the commands, flags and values, and reads back a directive line and the candidates. So a
 * script never goes stale when amux gains a command or a flag.
 */

const BASH = `# bash completion for amux (README "Shell completion").
# Install: amux completion bash > ~/.local/share/bash-completion/completions/amux
#      or: echo 'source <(amux completion bash)' >> ~/.bashrc
_amux_complete() {
  local cur=\${COMP_WORDS[COMP_CWORD]}
  local -a words
  if [[ -n \${COMP_LINE+set} ]]; then
    # The line up to the cursor, split at blanks only: bash splits COMP_WORDS at = and : too.
    local line=\${COMP_LINE:0:COMP_POINT}
    read -r -a words <<< "\$line"
    [[ -z \$line || \$line == *[[:blank:]] ]] && words+=("")
  else
    words=("\${COMP_WORDS[@]:0:COMP_CWORD+1}")
  fi
  local bin=\${words[0]}
  [[ \$bin == "~/"* ]] && bin=\$HOME/\${bin#"~/"}
  local out
  out=\$(command "\$bin" __complete "\${words[@]:1}" 2>/dev/null) || return 0
  local -a lines
  mapfile -t lines <<< "\$out"
  COMPREPLY=()
  case \${lines[0]} in
    files) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "\$cur"); return 0 ;;
    dirs) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "\$cur"); return 0 ;;
    commands) mapfile -t COMPREPLY < <(compgen -c -- "\$cur" | sort -u); return 0 ;;
  esac
  # Readline replaces only the text after the word's last = or : (when COMP_WORDBREAKS has them),
  # so the candidates lose what comes before it.
  local full=\${words[\${#words[@]}-1]} breaks= strip=
  [[ \$COMP_WORDBREAKS == *=* ]] && breaks+='='
  [[ \$COMP_WORDBREAKS == *:* ]] && breaks+=':'
  [[ -n \$breaks ]] && strip=\${full%"\${full##*[\$breaks]}"}
  local l v nospace=
  for l in "\${lines[@]:1}"; do
    v=\${l%%$'\\t'*}
    [[ -z \$v ]] && continue
    [[ \$v == *[:=,] ]] && nospace=1
    COMPREPLY+=("\${v#"\$strip"}")
  done
  [[ -n \$nospace ]] && compopt -o nospace 2>/dev/null
  return 0
}
complete -F _amux_complete amux
`;

const ZSH = `#compdef amux
# zsh completion for amux (README "Shell completion").
# Install: amux completion zsh > ~/.zfunc/_amux, with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc
#      or: echo 'source <(amux completion zsh)' >> ~/.zshrc (after compinit)
_amux() {
  local out directive line v d nospace
  local -a lines cands
  out=$(\${words[1]} __complete "\${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
  lines=("\${(@f)out}")
  directive=\${lines[1]}
  case \$directive in
    files) _files; return ;;
    dirs) _files -/; return ;;
    commands) _command_names -e; return ;;
  esac
  for line in "\${(@)lines[2,-1]}"; do
    [[ -z \$line ]] && continue
    v=\${line%%$'\\t'*}
    d=
    [[ \$line == *$'\\t'* ]] && d=\${line#*$'\\t'}
    [[ \$v == *[:=,] ]] && nospace=1
    cands+=("\${v//:/\\\\:}\${d:+:\$d}")
  done
  (( \$#cands )) || return 1
  if [[ -n \$nospace ]]; then
    _describe -t amux amux cands -S ''
  else
    _describe -t amux amux cands
  fi
}
if [[ \${funcstack[1]} == _amux ]]; then
  _amux "$@"
else
  compdef _amux amux
fi
`;

const FISH = `# fish completion for amux (README "Shell completion").
# Install: amux completion fish > ~/.config/fish/completions/amux.fish
function __amux_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -l bin $tokens[1]
    set -e tokens[1]
    set -l out (command $bin __complete $tokens $cur 2>/dev/null)
    or return
    switch "$out[1]"
        case files
            __fish_complete_path $cur
        case dirs
            __fish_complete_directories $cur
        case commands
            __fish_complete_command
        case '*'
            set -e out[1]
            printf '%s\\n' $out
    end
end
complete -c amux -f -a '(__amux_complete)'
`;

export const COMPLETION_SCRIPTS: Record<(typeof COMPLETION_SHELLS)[number], string> = { bash: BASH, zsh: ZSH, fish: FISH };

/** `amux completion SHELL`: prints the script. */
export async function completionCommand(shell: string): Promise<number> {
  if (!(COMPLETION_SHELLS as readonly string[]).includes(shell)) {
    throw new AmuxError('usage', `no completion for shell '${shell}': use ${COMPLETION_SHELLS.join(', ')}`);
  }
  await writeOut(COMPLETION_SCRIPTS[shell as (typeof COMPLETION_SHELLS)[number]]);
  return 0;
}
