package dev.lacewing.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Keyspace;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A snapshot walked in steps while keys change between them hands the sink exactly the keyspace
 * at its epoch, each key once: overwrites, deletes and new keys ahead of and behind the walk, a
 * table growing through several doublings and segment splits mid-walk, one emptied and refilled,
 * FLUSHDB and SWAPDB.
 */
class PartitionSnapshotTest {

    private static final int DATABASES = 3;

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(Object value) {
        return new String((byte[]) value, StandardCharsets.UTF_8);
    }

    /** Every live key of every database as "db/key" -> value. */
    private static Map<String, String> contents(PartitionedKeyspace keyspace) {
        Map<String, String> contents = new TreeMap<>();
        for (int db = 0; db < DATABASES; db++) {
            int index = db;
            ((Database) keyspace.database(db)).forEachLive((key, value, expireAt, access) ->
                contents.put(index + "/" + text(key), text(value)));
        }
        return contents;
    }

    /** Puts each entry into {@code image} as "db/key" -> value; fails on a key handed twice. */
    private static PartitionSnapshot.Sink into(Map<String, String> image) {
        return (database, key, offset, length, value, expireAt, access) -> {
            String name = database + "/" + new String(key, offset, length, StandardCharsets.UTF_8);
            String previous = image.put(name,
                new String(value.array(), value.offset(), value.length(), StandardCharsets.UTF_8));
            assertEquals(null, previous, "handed twice: " + name);
            return length;
        };
    }

    /** Begins a snapshot whose entries, early or walked, go into {@code image}. */
    private static PartitionSnapshot[] begin(PartitionedKeyspace keyspace, Map<String, String> image) {
        List<Keyspace> databases = new ArrayList<>();
        for (int db = 0; db < DATABASES; db++) {
            databases.add(keyspace.database(db));
        }
        return PartitionSnapshot.begin(databases, partition -> into(image));
    }

    private static void finish(PartitionSnapshot[] snapshots, Map<String, String> image) {
        for (PartitionSnapshot snapshot : snapshots) {
            int steps = 0;
            while (!snapshot.step(16, into(image))) {
                assertTrue(++steps < 1_000_000, "the walk ends");
            }
        }
    }

    @Test
    void theImageIsTheEpochWhateverChangesBetweenSteps() {
        PartitionedKeyspace keyspace = new PartitionedKeyspace(2, DATABASES);
        Random random = new Random(7);
        Keyspace zero = keyspace.database(0);
        Keyspace one = keyspace.database(1);
        for (int i = 0; i < 3000; i++) {
            zero.putString(bytes("k" + i), 0, ("k" + i).length(), bytes("v" + i), 0, ("v" + i).length(),
                Keyspace.NO_EXPIRY);
        }
        for (int i = 0; i < 40; i++) {
            one.put(bytes("small" + i), 0, ("small" + i).length(), bytes("s" + i), Keyspace.NO_EXPIRY);
        }
        Map<String, String> epoch = contents(keyspace);
        Map<String, String> image = new TreeMap<>();
        PartitionSnapshot[] snapshots = begin(keyspace, image);
        int next = 3000;
        for (int round = 0; round < 400; round++) {
            for (PartitionSnapshot snapshot : snapshots) {
                snapshot.step(8, into(image));
            }
            for (int change = 0; change < 20; change++) {
                String key = "k" + random.nextInt(next);
                switch (random.nextInt(4)) {
                    case 0 -> zero.putString(bytes(key), 0, key.length(), bytes("new" + round), 0,
                        ("new" + round).length(), Keyspace.NO_EXPIRY);
                    case 1 -> zero.remove(bytes(key), 0, key.length());
                    default -> {
                        // New keys: the table grows through doublings and splits while it is walked.
                        String fresh = "k" + next++;
                        zero.putString(bytes(fresh), 0, fresh.length(), bytes("fresh"), 0, 5, Keyspace.NO_EXPIRY);
                    }
                }
            }
            if (round == 5) {
                for (int i = 0; i < 40; i++) {
                    one.remove(bytes("small" + i), 0, ("small" + i).length());
                }
                for (int i = 0; i < 500; i++) {
                    one.put(bytes("refill" + i), 0, ("refill" + i).length(), bytes("r"), Keyspace.NO_EXPIRY);
                }
            }
        }
        finish(snapshots, image);
        assertEquals(epoch, image);
    }

    @Test
    void flushAndSwapWriteWhatTheyReplaceFirst() {
        PartitionedKeyspace keyspace = new PartitionedKeyspace(2, DATABASES);
        for (int db = 0; db < DATABASES; db++) {
            for (int i = 0; i < 500; i++) {
                String key = "d" + db + "k" + i;
                keyspace.database(db).put(bytes(key), 0, key.length(), bytes("v" + db), Keyspace.NO_EXPIRY);
            }
        }
        Map<String, String> epoch = contents(keyspace);
        Map<String, String> image = new TreeMap<>();
        PartitionSnapshot[] snapshots = begin(keyspace, image);
        for (PartitionSnapshot snapshot : snapshots) {
            snapshot.step(4, into(image));
        }
        keyspace.database(0).clear();
        for (int p = 0; p < keyspace.partitionCount(); p++) {
            keyspace.partition(p).swap(1, 2);
        }
        keyspace.database(1).put(bytes("after"), 0, 5, bytes("x"), Keyspace.NO_EXPIRY);
        finish(snapshots, image);
        assertEquals(epoch, image);
    }

    @Test
    void theDirtyCounterCountsChangedKeys() {
        PartitionedKeyspace keyspace = new PartitionedKeyspace(2, DATABASES);
        Database zero = (Database) keyspace.database(0);
        zero.put(bytes("a"), 0, 1, bytes("1"), Keyspace.NO_EXPIRY);
        zero.put(bytes("b"), 0, 1, bytes("1"), Keyspace.NO_EXPIRY);
        zero.remove(bytes("a"), 0, 1);
        zero.remove(bytes("missing"), 0, 7);
        zero.setExpireAt(bytes("missing"), 0, 7, 5);
        assertEquals(3, zero.dirty());
    }
}
