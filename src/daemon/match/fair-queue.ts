/**
 * A queue served in turns by client (ADR 0056): each `shift` takes the oldest item of the client
 * whose turn it is, and that client goes to the back of the line. A client with many items waiting
 * gets one turn in each round, like any other, so it never delays another by more than one item.
 */
export class FairQueue<T> {
  /** Clients in the order of their turns (a Map keeps insertion order), each with its items, oldest first. */
  private readonly turns = new Map<object, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(client: object, item: T): void {
    const items = this.turns.get(client);
    if (items) items.push(item);
    else this.turns.set(client, [item]);
    this.count++;
  }

  /** The next item, by turns; undefined when empty. */
  shift(): T | undefined {
    const next = this.turns.entries().next();
    if (next.done) return undefined;
    const [client, items] = next.value;
    const item = items.shift()!;
    this.turns.delete(client);
    if (items.length) this.turns.set(client, items); // to the back of the line
    this.count--;
    return item;
  }

  /** Every item, emptying the queue. */
  drain(): T[] {
    const all = [...this.turns.values()].flat();
    this.turns.clear();
    this.count = 0;
    return all;
  }
}
