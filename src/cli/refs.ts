import type { Client } from '../client/client.js';
import { AmuxError } from '../errors.js';
import { validContextName } from './contexts.js';
import { contextClient, newClient } from './target.js';

/**
 * Session references qualified by a context, `HOST:ID` (src/guides/remote.md): `amux wait
 * a:3f9a01bc b:77c82aab`. Session names and ids never hold ':', so a ':' always names a host.
 * An unqualified reference goes to the daemon the command talks to anyway.
 */
export interface Routed {
  /** The context named by the reference; null when it named none. */
  host: string | null;
  ref: string;
  client: Client;
}

export function splitRef(ref: string): { host: string | null; ref: string } {
  const i = ref.indexOf(':');
  if (i < 0) return { host: null, ref };
  const rest = ref.slice(i + 1);
  if (i === 0 || !rest) throw new AmuxError('usage', `bad reference '${ref}': HOST:ID names a context and a session (or job) there`);
  return { host: validContextName(ref.slice(0, i)), ref: rest };
}

/** Clients by context, made once each. */
export class Router {
  private readonly clients = new Map<string | null, Client>();

  client(host: string | null): Client {
    let c = this.clients.get(host);
    if (!c) {
      c = host === null ? newClient() : contextClient(host);
      this.clients.set(host, c);
    }
    return c;
  }

  route(ref: string): Routed {
    const { host, ref: bare } = splitRef(ref);
    return { host, ref: bare, client: this.client(host) };
  }

  /** Shows an id as the user named its host: `HOST:ID` when the reference was qualified. */
  static show(host: string | null, id: string): string {
    return host === null ? id : `${host}:${id}`;
  }
}
