package dev.lacewing.it.commands;

import dev.lacewing.core.keyspace.Slots;
import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The set-up of the cross-shard tests on a two-shard server: keys placed on a chosen shard, and a
 * dedicated server (DEBUG enabled) whose shard 1 can be held busy in DEBUG SLEEP while a command
 * sent from a shard-0 connection waits for it. {@link #sleeper} lives on worker 1, the
 * {@link #writer}, {@link #waiter} and {@link #reader} on worker 0. Waits are bounded in rounds.
 */
final class ShardStall implements AutoCloseable {

    final LacewingServer server;
    final RespClient sleeper;
    final RespClient writer;
    final RespClient waiter;
    final RespClient reader;
    private final List<RespClient> opened = new ArrayList<>();
    /** Each connection's CLIENT ID, asked while it is idle. */
    private final Map<RespClient, String> ids = new IdentityHashMap<>();
    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    private ShardStall(Target target) {
        server = Servers.builder(target).set("enable-debug-command", "yes").start();
        sleeper = connectedTo(1);
        writer = connectedTo(0);
        waiter = connectedTo(0);
        reader = connectedTo(0);
        for (RespClient client : List.of(sleeper, writer, waiter, reader)) {
            ids.put(client, client.call("CLIENT", "ID").replaceAll("[^0-9]", ""));
        }
    }

    static ShardStall start(Target target) {
        return new ShardStall(target);
    }

    /** The first key {@code name:i} that lives on {@code shard} of a two-shard server. */
    static String keyOnShard(String name, int shard) {
        for (int i = 0; ; i++) {
            String key = name + ":" + i;
            byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
            if (Slots.partitionOf(bytes, 0, bytes.length, 2) == shard) {
                return key;
            }
        }
    }

    /** Puts shard 1's thread to sleep for {@code seconds} and returns once it sleeps; its +OK is read by {@link #awoken}. */
    void sleepShardOne(int seconds) throws InterruptedException {
        sleeper.send(RespClient.encode(RespClient.toBytes("DEBUG", "SLEEP", Integer.toString(seconds))));
        awaitCommand(sleeper, "debug");
    }

    /** Reads the sleeper's reply to DEBUG SLEEP: waits for shard 1 to wake. */
    String awoken() {
        return sleeper.readReplyText();
    }

    /**
     * Sends {@code command} from {@code client} and returns its reply to come, once CLIENT LIST shows
     * it running. For a multi-shard command from a worker-0 connection that also means it holds its
     * shard-0 keys: the reader's CLIENT LIST runs on worker 0 after that command's dispatch there,
     * and the shared-nothing engine takes a transaction into the dispatching thread's own shard
     * within the dispatch (a take-in posted as a task could be overtaken by a command read meanwhile).
     */
    Future<String> sendAndAwaitRunning(RespClient client, String... command) throws InterruptedException {
        Future<String> reply = send(client, command);
        awaitCommand(client, command[0].toLowerCase());
        return reply;
    }

    /** Sends {@code command} from {@code client} and returns its reply to come. */
    Future<String> send(RespClient client, String... command) {
        client.send(RespClient.encode(RespClient.toBytes(command)));
        return pool.submit(client::readReplyText);
    }

    private RespClient connectedTo(int worker) {
        for (int i = 0; i < 32; i++) {
            RespClient client = RespClient.connect(server.port());
            opened.add(client);
            if (client.call("CLIENT", "INFO").contains(" worker=" + worker)) {
                return client;
            }
        }
        throw new IllegalStateException("no connection landed on worker " + worker);
    }

    /** Waits (bounded) until the reader's CLIENT LIST shows {@code client}'s last command as {@code command}. */
    private void awaitCommand(RespClient client, String command) throws InterruptedException {
        String id = ids.get(client);
        for (int i = 0; i < 500; i++) {
            for (String line : reader.call("CLIENT", "LIST").split("\n")) {
                if (line.startsWith("id=" + id + " ") && line.contains(" cmd=" + command + " ")) {
                    return;
                }
            }
            Thread.sleep(5);
        }
        throw new AssertionError("client " + id + " never ran " + command);
    }

    @Override
    public void close() {
        pool.shutdownNow();
        opened.forEach(RespClient::close);
        server.close();
    }
}
