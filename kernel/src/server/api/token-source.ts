/**
 * Where the server's token comes from. A `--token` argument is readable by every user in the process table
 * (/proc/<pid>/cmdline), so the environment (`NIGHTHAWK_TOKEN`) and a file (`--token-file`, e.g. mode 0600)
 * are offered as Jupyter does; the command-line form still works and warns.
 */
import { readFileSync } from 'node:fs';
import { NighthawkError } from '../../core/index.js';

export const TOKEN_ENV = 'NIGHTHAWK_TOKEN';

export class TokenSourceError extends NighthawkError {
  constructor(message: string) {
    super('token-source', message);
  }
}

export interface TokenChoice {
  /** Undefined: the server generates one. */
  token: string | undefined;
  /** Printed to stderr when the token came from the command line. */
  warning: string | undefined;
}

/**
 * `--token` wins, then `--token-file`, then `NIGHTHAWK_TOKEN`. The variable is removed from `env` once read
 * so kernel processes (which inherit the environment) and cells do not see it.
 */
export function chooseToken(options: { token?: string; tokenFile?: string; env: NodeJS.ProcessEnv }): TokenChoice {
  const fromEnv = options.env[TOKEN_ENV];
  delete options.env[TOKEN_ENV];
  if (options.token !== undefined) {
    return {
      token: checked(options.token, '--token'),
      warning: `warning: --token is visible to other users of this machine in the process list; set ${TOKEN_ENV} or use --token-file instead.`,
    };
  }
  if (options.tokenFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(options.tokenFile, 'utf8');
    } catch (error) {
      throw new TokenSourceError(`cannot read the token file ${options.tokenFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const token = text.replace(/\r?\n$/, '');
    if (token.trim() === '') throw new TokenSourceError(`the token file ${options.tokenFile} is empty; write the token on its first line`);
    return { token: checked(token, `the token file ${options.tokenFile}`), warning: undefined };
  }
  if (fromEnv !== undefined && fromEnv !== '') return { token: checked(fromEnv, TOKEN_ENV), warning: undefined };
  return { token: undefined, warning: undefined };
}

function checked(token: string, source: string): string {
  // The token travels in URLs and headers: printable ASCII without spaces.
  if (!/^[\x21-\x7e]{1,512}$/.test(token)) throw new TokenSourceError(`${source} must be 1–512 printable characters without spaces`);
  return token;
}
