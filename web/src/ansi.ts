/**
 * Renders ANSI SGR colour codes (as kernels put in tracebacks and streams) into spans; every other
 * escape sequence is dropped so control bytes never reach the page.
 */
const ESCAPE = /\x1b\[([0-9;?]*)([A-Za-z])|\x1b\][^\x07]*\x07|\x1b[@-Z\\-_]/g;

interface Style {
  fg?: number;
  bg?: number;
  bold: boolean;
  underline: boolean;
}

export function stripAnsi(text: string): string {
  return text.replace(ESCAPE, '');
}

export function renderAnsi(text: string): DocumentFragment {
  const frag = document.createDocumentFragment();
  let style: Style = { bold: false, underline: false };
  let last = 0;
  const emit = (chunk: string): void => {
    if (!chunk) return;
    if (style.fg === undefined && style.bg === undefined && !style.bold && !style.underline) {
      frag.appendChild(document.createTextNode(chunk));
      return;
    }
    const span = document.createElement('span');
    const classes: string[] = [];
    if (style.fg !== undefined) classes.push(`ansi-fg-${style.fg}`);
    if (style.bg !== undefined) classes.push(`ansi-bg-${style.bg}`);
    if (style.bold) classes.push('ansi-bold');
    if (style.underline) classes.push('ansi-underline');
    span.className = classes.join(' ');
    span.textContent = chunk;
    frag.appendChild(span);
  };
  for (const match of text.matchAll(ESCAPE)) {
    emit(text.slice(last, match.index));
    last = (match.index ?? 0) + match[0].length;
    if (match[2] === 'm') style = applySgr(style, match[1] ?? '');
  }
  emit(text.slice(last));
  return frag;
}

function applySgr(current: Style, params: string): Style {
  const style = { ...current };
  const codes = params === '' ? [0] : params.split(';').map((p) => Number(p) || 0);
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    if (code === 0) Object.assign(style, { fg: undefined, bg: undefined, bold: false, underline: false });
    else if (code === 1) style.bold = true;
    else if (code === 4) style.underline = true;
    else if (code === 22) style.bold = false;
    else if (code === 24) style.underline = false;
    else if (code >= 30 && code <= 37) style.fg = code - 30;
    else if (code >= 90 && code <= 97) style.fg = code - 90 + 8;
    else if (code === 39) style.fg = undefined;
    else if (code >= 40 && code <= 47) style.bg = code - 40;
    else if (code >= 100 && code <= 107) style.bg = code - 100 + 8;
    else if (code === 49) style.bg = undefined;
    else if (code === 38 || code === 48) {
      // 256-colour / truecolour: consume the arguments, keep the default colour.
      i += codes[i + 1] === 5 ? 2 : 4;
    }
  }
  return style;
}
