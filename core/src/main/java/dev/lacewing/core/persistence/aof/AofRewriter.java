package dev.lacewing.core.persistence.aof;

import dev.lacewing.core.datatype.HashValue;
import dev.lacewing.core.datatype.Listpack;
import dev.lacewing.core.datatype.Quicklist;
import dev.lacewing.core.datatype.SetValue;
import dev.lacewing.core.datatype.SortedSet;
import dev.lacewing.core.datatype.StreamGroup;
import dev.lacewing.core.datatype.StreamId;
import dev.lacewing.core.datatype.StreamValue;
import dev.lacewing.core.persistence.rdb.RdbFileReader;
import dev.lacewing.core.persistence.rdb.RedisListpack;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * An AOF base file of commands, as Redis 7.0's rewriteAppendOnlyFileRio writes it with
 * {@code aof-use-rdb-preamble no}: FUNCTION LOAD per library, then per non-empty database a
 * SELECT and, per key, the commands that rebuild it (SET; RPUSH, SADD, ZADD, HMSET in batches of
 * {@link #ITEMS_PER_COMMAND} items; a stream as XADD per entry, XSETID, then per group XGROUP
 * CREATE, an XCLAIM ... JUSTID FORCE per pending entry of each consumer and XGROUP CREATECONSUMER
 * for a consumer without any), followed by PEXPIREAT when the key expires.
 *
 * <p>It is fed by {@link RdbFileReader}, one value at a time, from the RDB image of the rewrite's
 * epoch, so the command base and the RDB preamble are the same point-in-time image and only one
 * value is decoded at a time. Orders follow the value's own: lists head to tail, sorted sets by
 * score, streams by ID, groups and consumers by name (Redis's rax order), sets and hashes in
 * table order (Redis's dict order is not defined either).
 *
 * <p>Thread rule: one rewrite's thread.
 */
final class AofRewriter implements RdbFileReader.Loader {

    /** aof.h's AOF_REWRITE_ITEMS_PER_CMD. */
    static final int ITEMS_PER_COMMAND = 64;
    /** Stream entries read per range while a stream is written: bounds the entry list held. */
    private static final int STREAM_ENTRIES_PER_RANGE = 1024;

    private final OutputStream out;
    private final int databases;
    private int selected = -1;

    AofRewriter(OutputStream out, int databases) {
        this.out = out;
        this.databases = databases;
    }

    @Override
    public int databases() {
        return databases;
    }

    @Override
    public String library(byte[] code) {
        command(bytes("FUNCTION"), bytes("LOAD"), code);
        return null;
    }

    @Override
    public void entry(int database, byte[] key, Object value, long expireAt, long idleSeconds, int frequency) {
        if (database != selected) {
            command(bytes("SELECT"), bytes(Integer.toString(database)));
            selected = database;
        }
        if (value instanceof byte[] string) {
            command(bytes("SET"), key, string);
        } else if (value instanceof Quicklist list) {
            list(key, list);
        } else if (value instanceof SetValue set) {
            set(key, set);
        } else if (value instanceof SortedSet zset) {
            sortedSet(key, zset);
        } else if (value instanceof HashValue hash) {
            hash(key, hash);
        } else if (value instanceof StreamValue stream) {
            stream(key, stream);
        } else {
            throw new IllegalArgumentException("no AOF rewrite for " + value.getClass().getSimpleName());
        }
        if (expireAt != -1) {
            command(bytes("PEXPIREAT"), key, bytes(Long.toString(expireAt)));
        }
    }

    /** rewriteListObject. */
    private void list(byte[] key, Quicklist list) {
        Batches batches = new Batches("RPUSH", key, 1);
        list.forEachNode((entries, compressed) -> {
            for (int at = entries.first(); at >= 0; at = entries.next(at)) {
                batches.add(element(entries, at));
            }
        });
        batches.finish();
    }

    private static byte[] element(Listpack entries, int at) {
        return entries.isInteger(at) ? bytes(Long.toString(entries.integer(at))) : entries.get(at);
    }

    /** rewriteSetObject. */
    private void set(byte[] key, SetValue set) {
        Batches batches = new Batches("SADD", key, 1);
        for (int at = set.first(); at >= 0; at = set.next(at)) {
            batches.add(set.member(at));
        }
        batches.finish();
    }

    /** rewriteSortedSetObject: score as the listpack writes it (d2string), then member. */
    private void sortedSet(byte[] key, SortedSet zset) {
        Batches batches = new Batches("ZADD", key, 2);
        int size = zset.size();
        if (size > 0) {
            zset.visit(0, size - 1, false, (array, offset, length, score) -> {
                batches.add(RedisListpack.scoreText(score));
                batches.add(Arrays.copyOfRange(array, offset, offset + length));
            });
        }
        batches.finish();
    }

    /** rewriteHashObject. */
    private void hash(byte[] key, HashValue hash) {
        Batches batches = new Batches("HMSET", key, 2);
        for (int at = hash.first(); at >= 0; at = hash.next(at)) {
            byte[] array = hash.array(at);
            int field = hash.fieldOffset(at);
            int value = hash.valueOffset(at);
            batches.add(Arrays.copyOfRange(array, field, field + hash.fieldLength(at)));
            batches.add(Arrays.copyOfRange(array, value, value + hash.valueLength(at)));
        }
        batches.finish();
    }

    /** rewriteStreamObject. */
    private void stream(byte[] key, StreamValue stream) {
        if (stream.length() > 0) {
            StreamId from = StreamId.MIN;
            while (true) {
                List<StreamValue.Entry> entries = stream.range(from, StreamId.MAX, STREAM_ENTRIES_PER_RANGE, false);
                for (StreamValue.Entry entry : entries) {
                    List<byte[]> argv = new ArrayList<>();
                    argv.add(bytes("XADD"));
                    argv.add(key);
                    argv.add(bytes(entry.id().toString()));
                    stream.fields(entry, (array, offset, length) ->
                        argv.add(Arrays.copyOfRange(array, offset, offset + length)));
                    command(argv);
                }
                if (entries.size() < STREAM_ENTRIES_PER_RANGE) {
                    break;
                }
                StreamId last = entries.get(entries.size() - 1).id();
                if (last.equals(StreamId.MAX)) {
                    break;
                }
                from = last.seq() == -1L ? new StreamId(last.ms() + 1, 0) : new StreamId(last.ms(), last.seq() + 1);
            }
        } else {
            // An empty stream: XADD MAXLEN 0 creates the key and trims the entry it adds at once;
            // its ID is 0-1, as Redis writes it, and XSETID then sets the last ID.
            command(bytes("XADD"), key, bytes("MAXLEN"), bytes("0"), bytes("0-1"), bytes("x"), bytes("y"));
        }
        command(bytes("XSETID"), key, bytes(stream.lastId().toString()), bytes("ENTRIESADDED"),
            bytes(Long.toString(stream.entriesAdded())), bytes("MAXDELETEDID"),
            bytes(stream.maxDeletedId().toString()));
        for (Map.Entry<byte[], StreamGroup> named : sortedByName(stream.groups())) {
            byte[] name = named.getKey();
            StreamGroup group = named.getValue();
            command(bytes("XGROUP"), bytes("CREATE"), key, name, bytes(group.lastId().toString()),
                bytes("ENTRIESREAD"), bytes(Long.toString(group.entriesRead())));
            for (Map.Entry<byte[], StreamGroup.Consumer> consumer : sortedByName(group.consumers())) {
                if (consumer.getValue().pending().isEmpty()) {
                    command(bytes("XGROUP"), bytes("CREATECONSUMER"), key, name, consumer.getKey());
                    continue;
                }
                for (Map.Entry<StreamId, StreamGroup.Pending> pending : consumer.getValue().pending().entrySet()) {
                    command(bytes("XCLAIM"), key, name, consumer.getKey(), bytes("0"),
                        bytes(pending.getKey().toString()), bytes("TIME"),
                        bytes(Long.toString(pending.getValue().deliveryTime())), bytes("RETRYCOUNT"),
                        bytes(Long.toString(pending.getValue().deliveryCount())), bytes("JUSTID"), bytes("FORCE"));
                }
            }
        }
    }

    private static <V> List<Map.Entry<byte[], V>> sortedByName(Map<byte[], V> byName) {
        List<Map.Entry<byte[], V>> entries = new ArrayList<>(byName.entrySet());
        entries.sort((a, b) -> Arrays.compareUnsigned(a.getKey(), b.getKey()));
        return entries;
    }

    /**
     * One command's arguments gathered until {@link #ITEMS_PER_COMMAND} items (an item being
     * {@code width} arguments: a member, or a score and member, a field and value).
     */
    private final class Batches {
        private final byte[] name;
        private final byte[] key;
        private final int limit;
        private final List<byte[]> argv = new ArrayList<>();

        Batches(String name, byte[] key, int width) {
            this.name = bytes(name);
            this.key = key;
            this.limit = ITEMS_PER_COMMAND * width;
        }

        void add(byte[] argument) {
            if (argv.isEmpty()) {
                argv.add(name);
                argv.add(key);
            }
            argv.add(argument);
            if (argv.size() - 2 == limit) {
                finish();
            }
        }

        void finish() {
            if (!argv.isEmpty()) {
                command(argv);
                argv.clear();
            }
        }
    }

    private void command(byte[]... argv) {
        command(Arrays.asList(argv));
    }

    private void command(List<byte[]> argv) {
        try {
            out.write(bytes("*" + argv.size() + "\r\n"));
            for (byte[] argument : argv) {
                out.write(bytes("$" + argument.length + "\r\n"));
                out.write(argument);
                out.write('\r');
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
