import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { awaitsReply, tcpPeers, tcpTimes, unixPeers } from '../../src/core/socket-tables.js';

describe('socket tables (ADR 0048)', () => {
  test('tcpPeers: two established ends on this host are each other\'s peers; a listener and a remote end are not', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:A1B2 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 100 1 0000000000000000 100 0 0 10 0',
      '   1: 0100007F:C000 0100007F:A1B2 01 00000000:00000000 00:00000000 00000000     0        0 201 1 0000000000000000 20 4 30 10 -1',
      '   2: 0100007F:A1B2 0100007F:C000 01 00000000:00000000 00:00000000 00000000     0        0 202 1 0000000000000000 20 4 30 10 -1',
      '   3: 0A00000F:C001 5DB8D822:01BB 01 00000000:00000000 00:00000000 00000000     0        0 300 1 0000000000000000 20 4 30 10 -1',
    ].join('\n');
    assert.deepEqual([...tcpPeers(table)], [['201', '202'], ['202', '201']]);
  });

  test('unixPeers: the inodes are the third field from the end and the last; paths may hold spaces; 0 is none', () => {
    const ss = [
      'u_str ESTAB 0      0      * 31908 * 31909',
      'u_str ESTAB 0      0      /run/my app.sock 500 * 501',
      'u_str LISTEN 0     4096   /run/x.sock 77 * 0',
    ].join('\n');
    assert.deepEqual([...unixPeers(ss)], [['31908', '31909'], ['500', '501'], ['77', '0']]);
  });

  test('tcpTimes: lastsnd, lastrcv and bytes from the info line under each socket, 0 when left out', () => {
    const ss = [
      '0      0      127.0.0.1:52358 127.0.0.1:48555 ino:31911 sk:14 cgroup:/ <->',
      '\t ts sack bbr rto:204 bytes_sent:3 bytes_acked:4 segs_out:3 lastsnd:316 lastrcv:1324 lastack:316',
      '0      0      127.0.0.1:48555 127.0.0.1:52358 ino:31912 sk:15 cgroup:/ <->',
      '\t ts sack bbr rto:200 bytes_received:3 lastrcv:316',
    ].join('\n');
    assert.deepEqual([...tcpTimes(ss)], [
      ['31911', { lastSendMs: 316, lastReceiveMs: 1324, bytesSent: 3, bytesReceived: 0 }],
      ['31912', { lastSendMs: 0, lastReceiveMs: 316, bytesSent: 0, bytesReceived: 3 }],
    ]);
  });

  test('awaitsReply: sent after the last data received; a request sent as it connected; nothing sent: no', () => {
    assert.equal(awaitsReply({ lastSendMs: 300, lastReceiveMs: 1300, bytesSent: 3, bytesReceived: 0 }), true);
    assert.equal(awaitsReply({ lastSendMs: 1300, lastReceiveMs: 300, bytesSent: 3, bytesReceived: 9 }), false); // answered
    assert.equal(awaitsReply({ lastSendMs: 672, lastReceiveMs: 672, bytesSent: 3, bytesReceived: 0 }), true); // sent as it connected
    assert.equal(awaitsReply({ lastSendMs: 672, lastReceiveMs: 672, bytesSent: 3, bytesReceived: 9 }), false); // a loopback answer within the millisecond
    assert.equal(awaitsReply({ lastSendMs: 500, lastReceiveMs: 500, bytesSent: 0, bytesReceived: 0 }), false); // a fresh connection
  });
});
