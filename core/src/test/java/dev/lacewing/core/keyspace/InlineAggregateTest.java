package dev.lacewing.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.storage.Table;
import dev.lacewing.core.datatype.HashValue;
import dev.lacewing.core.datatype.SetValue;
import dev.lacewing.core.datatype.TypedValue;
import dev.lacewing.storage.compact.CompactTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Small hashes and sets changed in random order through the {@link Keyspace} API, as commands
 * change them (look up, change, then {@code modified}, {@code put} or {@code remove}), checked
 * against a model. They live inline in their entries, materialized on
 * lookup and written back on {@code modified}: a lost write-back shows once the table has let the
 * materialized value go, which reading every key (more keys than it holds values) forces.
 */
class InlineAggregateTest {

    private static final int KEYS = 150;
    private static final long MAX_ENTRIES = 12;
    private static final long MAX_VALUE = 10;

    /** What a key holds in the model: a hash (fields in insertion order) or a set, and whether it converted. */
    private static final class Model {
        final LinkedHashMap<String, String> hash;
        final TreeSet<String> set;
        boolean large;

        Model(boolean isHash) {
            hash = isHash ? new LinkedHashMap<>() : null;
            set = isHash ? null : new TreeSet<>();
        }

        Model copy() {
            Model copy = new Model(hash != null);
            if (hash != null) {
                copy.hash.putAll(hash);
            } else {
                copy.set.addAll(set);
            }
            copy.large = large;
            return copy;
        }

        int size() {
            return hash != null ? hash.size() : set.size();
        }
    }

    @Test
    void randomChangesToManySmallAggregatesAreAllKept() {
        for (int seed = 0; seed < 6; seed++) {
            long[] now = {1_000};
            PartitionedKeyspace keyspace = new PartitionedKeyspace(2, 2, () -> now[0]);
            Keyspace[] databases = {keyspace.database(0), keyspace.database(1)};
            List<Map<String, Model>> models = List.of(new HashMap<>(), new HashMap<>());
            Random random = new Random(seed);
            for (int step = 0; step < 6_000; step++) {
                int db = random.nextInt(8) == 0 ? 1 : 0;
                Keyspace database = databases[db];
                Map<String, Model> model = models.get(db);
                String name = "key:" + random.nextInt(KEYS);
                byte[] key = bytes(name);
                int op = random.nextInt(100);
                if (op < 30) {
                    hashSet(database, model, name, random);
                } else if (op < 40) {
                    hashDelete(database, model, name, random);
                } else if (op < 65) {
                    setAdd(database, model, name, random);
                } else if (op < 75) {
                    setRemove(database, model, name, random);
                } else if (op < 80) {
                    rename(database, model, name, "key:" + random.nextInt(KEYS));
                } else if (op < 84) {
                    copyTo(database, databases[1 - db], model, models.get(1 - db), name);
                } else if (op < 88) {
                    database.setExpireAt(key, 0, key.length,
                        random.nextBoolean() ? Keyspace.NO_EXPIRY : now[0] + 1 + random.nextInt(200));
                } else if (op < 90) {
                    if (database.remove(key, 0, key.length)) {
                        model.remove(name);
                    }
                } else if (op < 92) {
                    now[0] += 50;
                    expireFromModel(databases, models);
                } else {
                    check(database.get(key, 0, key.length), model.get(name), name);
                }
                if (step % 500 == 499) {
                    checkAll(databases, models);
                }
            }
            checkAll(databases, models);
            for (int db = 0; db < 2; db++) {
                for (String name : models.get(db).keySet()) {
                    byte[] key = bytes(name);
                    assertTrue(databases[db].remove(key, 0, key.length), name);
                }
                for (int partition = 0; partition < keyspace.partitionCount(); partition++) {
                    Table table = keyspace.partition(partition).table(db);
                    assertEquals(0, table.size());
                    if (table instanceof CompactTable compact) {
                        assertEquals(0, compact.liveBytes(), "seed " + seed);
                    }
                }
            }
        }
    }

    /** HSET as the hash family does it: change a looked-up hash and report it, or put a new one. */
    private static void hashSet(Keyspace database, Map<String, Model> model, String name, Random random) {
        byte[] key = bytes(name);
        Object value = database.get(key, 0, key.length);
        if (value != null && !(value instanceof HashValue)) {
            return;
        }
        HashValue hash = value == null ? new HashValue() : (HashValue) value;
        Model expected = value == null ? new Model(true) : model.get(name);
        boolean putFirst = value == null && random.nextBoolean();
        if (putFirst) {
            database.put(key, 0, key.length, hash, Keyspace.NO_EXPIRY);
        }
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
            String field = "f" + random.nextInt(20);
            String text = random.nextInt(30) == 0 ? "long-value-" + random.nextInt(1000) : "v" + random.nextInt(1000);
            byte[] fieldBytes = bytes(field);
            byte[] valueBytes = bytes(text);
            hash.set(fieldBytes, 0, fieldBytes.length, valueBytes, 0, valueBytes.length, MAX_ENTRIES, MAX_VALUE);
            expected.hash.put(field, text);
            expected.large |= text.length() > MAX_VALUE || expected.hash.size() > MAX_ENTRIES;
        }
        if (value == null && !putFirst) {
            database.put(key, 0, key.length, hash, Keyspace.NO_EXPIRY);
        } else {
            database.modified(key, 0, key.length);
        }
        model.put(name, expected);
    }

    private static void hashDelete(Keyspace database, Map<String, Model> model, String name, Random random) {
        byte[] key = bytes(name);
        if (!(database.get(key, 0, key.length) instanceof HashValue hash)) {
            return;
        }
        Model expected = model.get(name);
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
            String field = "f" + random.nextInt(20);
            byte[] fieldBytes = bytes(field);
            assertEquals(expected.hash.remove(field) != null, hash.remove(fieldBytes, 0, fieldBytes.length));
        }
        removeOrReport(database, model, name, hash.size());
    }

    /** SADD: members mostly small integers, sometimes a wide one or a word, which converts. */
    private static void setAdd(Keyspace database, Map<String, Model> model, String name, Random random) {
        byte[] key = bytes(name);
        Object value = database.get(key, 0, key.length);
        if (value != null && !(value instanceof SetValue)) {
            return;
        }
        Model expected = value == null ? new Model(false) : model.get(name);
        SetValue set = (SetValue) value;
        for (int n = 1 + random.nextInt(4); n > 0; n--) {
            int kind = random.nextInt(40);
            String member = kind == 0 ? "m" + random.nextInt(5)
                : kind < 4 ? String.valueOf(random.nextLong()) : String.valueOf(random.nextInt(40) - 10);
            byte[] memberBytes = bytes(member);
            if (set == null) {
                set = SetValue.forFirstMember(memberBytes, 0, memberBytes.length);
                expected.large = !SetValue.isInteger(memberBytes, 0, memberBytes.length);
            }
            set.add(memberBytes, 0, memberBytes.length, MAX_ENTRIES);
            expected.set.add(member);
            expected.large |= !SetValue.isInteger(memberBytes, 0, memberBytes.length) || expected.set.size() > MAX_ENTRIES;
        }
        if (value == null) {
            database.put(key, 0, key.length, set, Keyspace.NO_EXPIRY);
        } else {
            database.modified(key, 0, key.length);
        }
        model.put(name, expected);
    }

    private static void setRemove(Keyspace database, Map<String, Model> model, String name, Random random) {
        byte[] key = bytes(name);
        if (!(database.get(key, 0, key.length) instanceof SetValue set)) {
            return;
        }
        Model expected = model.get(name);
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
            if (random.nextBoolean() && set.size() > 0) {
                int at = set.randomPosition(random);
                String member = new String(set.member(at), StandardCharsets.UTF_8);
                set.removeAt(at);
                assertTrue(expected.set.remove(member), member);
            } else {
                String member = String.valueOf(random.nextInt(40) - 10);
                byte[] memberBytes = bytes(member);
                assertEquals(expected.set.remove(member), set.remove(memberBytes, 0, memberBytes.length));
            }
        }
        removeOrReport(database, model, name, set.size());
    }

    private static void removeOrReport(Keyspace database, Map<String, Model> model, String name, int size) {
        byte[] key = bytes(name);
        if (size == 0) {
            database.remove(key, 0, key.length);
            model.remove(name);
        } else {
            database.modified(key, 0, key.length);
        }
    }

    /** RENAME as the generic family does it: the value moves with its expiry. */
    private static void rename(Keyspace database, Map<String, Model> model, String from, String to) {
        byte[] source = bytes(from);
        byte[] destination = bytes(to);
        Object value = database.get(source, 0, source.length);
        if (value == null || from.equals(to)) {
            return;
        }
        long expireAt = database.expireAt(source, 0, source.length);
        database.put(destination, 0, destination.length, value, expireAt);
        database.remove(source, 0, source.length);
        model.put(to, model.remove(from));
    }

    /** COPY to the other database: a deep copy, which then changes apart from the original. */
    private static void copyTo(Keyspace source, Keyspace destination, Map<String, Model> sourceModel,
                               Map<String, Model> destinationModel, String name) {
        byte[] key = bytes(name);
        if (source.get(key, 0, key.length) instanceof TypedValue value) {
            destination.put(key, 0, key.length, value.copy(), Keyspace.NO_EXPIRY);
            destinationModel.put(name, sourceModel.get(name).copy());
        }
    }

    /** Drops from the models the keys whose time has passed (the keyspace deletes them on lookup). */
    private static void expireFromModel(Keyspace[] databases, List<Map<String, Model>> models) {
        for (int db = 0; db < databases.length; db++) {
            Keyspace database = databases[db];
            models.get(db).keySet().removeIf(name -> {
                byte[] key = bytes(name);
                return database.expireAt(key, 0, key.length) == -2;
            });
        }
    }

    /**
     * Reads every key twice: the first pass makes the compact table let go of the values it held
     * (there are more keys than it holds), so the second sees what the entries' bytes say.
     */
    private static void checkAll(Keyspace[] databases, List<Map<String, Model>> models) {
        for (int pass = 0; pass < 2; pass++) {
            for (int db = 0; db < databases.length; db++) {
                for (int i = 0; i < KEYS; i++) {
                    String name = "key:" + i;
                    byte[] key = bytes(name);
                    Object value = databases[db].get(key, 0, key.length);
                    check(value, models.get(db).get(name), name);
                    assertSame(value, databases[db].get(key, 0, key.length), "one object per key while held");
                }
            }
        }
    }

    private static void check(Object value, Model expected, String name) {
        if (expected == null) {
            assertNull(value, name);
            return;
        }
        if (expected.hash != null) {
            HashValue hash = assertInstanceOf(HashValue.class, value, name);
            Map<String, String> fields = new LinkedHashMap<>();
            for (int at = hash.first(); at >= 0; at = hash.next(at)) {
                byte[] array = hash.array(at);
                fields.put(new String(array, hash.fieldOffset(at), hash.fieldLength(at), StandardCharsets.UTF_8),
                    new String(hash.value(at), StandardCharsets.UTF_8));
            }
            assertEquals(expected.hash, fields, name);
            if (!expected.large) {
                assertEquals(new ArrayList<>(expected.hash.keySet()), new ArrayList<>(fields.keySet()), name);
            }
            assertEquals(expected.hash.size(), hash.size(), name);
            assertEquals(expected.large ? HashValue.HASHTABLE : HashValue.LISTPACK, hash.encoding(), name);
        } else {
            SetValue set = assertInstanceOf(SetValue.class, value, name);
            TreeSet<String> members = new TreeSet<>();
            for (byte[] member : set.members()) {
                members.add(new String(member, StandardCharsets.UTF_8));
            }
            assertEquals(expected.set, members, name);
            assertEquals(expected.size(), set.size(), name);
            assertEquals(expected.large ? SetValue.HASHTABLE : SetValue.INTSET, set.encoding(), name);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
