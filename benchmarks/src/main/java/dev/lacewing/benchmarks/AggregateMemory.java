package dev.lacewing.benchmarks;

import dev.lacewing.api.Keyspace;
import dev.lacewing.core.datatype.HashValue;
import dev.lacewing.core.datatype.Quicklist;
import dev.lacewing.core.datatype.SetValue;
import dev.lacewing.core.datatype.SortedSet;
import dev.lacewing.core.keyspace.PartitionedKeyspace;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

/**
 * Bytes per element of the hash and set encodings, for issue 5's memory targets: one hash of
 * {@code count} fields ({@code field:%d} -> {@code value:%d}, the large packed table), or
 * {@code count / 10} small hashes of 10 such fields (listpack), or {@code count / 10} small sets of
 * 10 integers (intset), or {@code count / 10} small sorted sets of 10 members {@code member:%d}
 * scored {@code i * 1.5} (listpack), or {@code count / 10} lists of 10 elements
 * {@code element:%d}, or one list of {@code count} such elements (quicklist, 8 KiB nodes), stored
 * under keys {@code key:%012d} of the compact keyspace. Heap in use
 * after full GCs before and after filling, divided by the element count, beside the values' own
 * {@code memoryUsage()}. One shape per JVM:
 *
 * <pre>java -Xmx4g -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
 *   dev.lacewing.benchmarks.AggregateMemory large-hash 1000000</pre>
 */
public final class AggregateMemory {

    private static final long MAX_LISTPACK_ENTRIES = 512;
    private static final long MAX_LISTPACK_VALUE = 64;
    private static final long MAX_INTSET_ENTRIES = 512;
    private static final long MAX_ZSET_LISTPACK_ENTRIES = 128;
    /** list-max-listpack-size's default: 8 KiB nodes. */
    private static final int LIST_FILL = -2;

    private AggregateMemory() {
    }

    public static void main(String[] args) {
        String shape = args.length > 0 ? args[0] : "large-hash";
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        long before = heapAfterFullGc();
        PartitionedKeyspace keyspace = new PartitionedKeyspace(1, 16);
        Keyspace database = keyspace.database(0);
        long own = 0;
        switch (shape) {
            case "large-hash" -> {
                HashValue hash = new HashValue();
                for (int i = 0; i < count; i++) {
                    byte[] field = bytes("field:" + i);
                    byte[] value = bytes("value:" + i);
                    hash.set(field, 0, field.length, value, 0, value.length, MAX_LISTPACK_ENTRIES, MAX_LISTPACK_VALUE);
                }
                byte[] key = bytes("key:000000000000");
                database.put(key, 0, key.length, hash, Keyspace.NO_EXPIRY);
                own = hash.memoryUsage();
            }
            case "small-hashes" -> {
                for (int k = 0; k < count / 10; k++) {
                    HashValue hash = new HashValue();
                    for (int i = 0; i < 10; i++) {
                        byte[] field = bytes("field:" + i);
                        byte[] value = bytes("value:" + i);
                        hash.set(field, 0, field.length, value, 0, value.length, MAX_LISTPACK_ENTRIES,
                            MAX_LISTPACK_VALUE);
                    }
                    byte[] key = bytes(String.format("key:%012d", k));
                    database.put(key, 0, key.length, hash, Keyspace.NO_EXPIRY);
                    own += hash.memoryUsage();
                }
            }
            case "small-sets" -> {
                for (int k = 0; k < count / 10; k++) {
                    SetValue set = new SetValue();
                    for (int i = 0; i < 10; i++) {
                        byte[] member = bytes(Integer.toString(i * 1000 + k % 1000));
                        set.add(member, 0, member.length, MAX_INTSET_ENTRIES);
                    }
                    byte[] key = bytes(String.format("key:%012d", k));
                    database.put(key, 0, key.length, set, Keyspace.NO_EXPIRY);
                    own += set.memoryUsage();
                }
            }
            case "small-zsets" -> {
                for (int k = 0; k < count / 10; k++) {
                    SortedSet set = new SortedSet();
                    for (int i = 0; i < 10; i++) {
                        set.add(bytes("member:" + i), i * 1.5, MAX_ZSET_LISTPACK_ENTRIES, MAX_LISTPACK_VALUE);
                    }
                    byte[] key = bytes(String.format("key:%012d", k));
                    database.put(key, 0, key.length, set, Keyspace.NO_EXPIRY);
                    own += set.memoryUsage();
                }
            }
            case "small-lists" -> {
                for (int k = 0; k < count / 10; k++) {
                    Quicklist list = new Quicklist(LIST_FILL, 0);
                    for (int i = 0; i < 10; i++) {
                        list.pushTail(bytes("element:" + i));
                    }
                    byte[] key = bytes(String.format("key:%012d", k));
                    database.put(key, 0, key.length, list, Keyspace.NO_EXPIRY);
                    own += list.memoryUsage();
                }
            }
            case "large-list" -> {
                Quicklist list = new Quicklist(LIST_FILL, 0);
                for (int i = 0; i < count; i++) {
                    list.pushTail(bytes("element:" + i));
                }
                byte[] key = bytes("key:000000000000");
                database.put(key, 0, key.length, list, Keyspace.NO_EXPIRY);
                own = list.memoryUsage();
            }
            default -> throw new IllegalArgumentException(
                "shape: large-hash, small-hashes, small-sets, small-zsets, small-lists or large-list");
        }
        long after = heapAfterFullGc();
        System.out.printf("%s %d elements: heap %.1f bytes/element, values' memoryUsage %.1f bytes/element, "
                + "used_memory %d%n", shape, count, (after - before) / (double) count, own / (double) count,
            keyspace.liveMemory());
        if (database.size() == 0) {
            throw new AssertionError("keeps the keyspace reachable until measured");
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static long heapAfterFullGc() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
