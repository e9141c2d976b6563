package dev.lacewing.storage.compact;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import dev.lacewing.api.storage.Aggregate;
import dev.lacewing.api.storage.Table;
import dev.lacewing.storage.tck.TestAccessPolicy;
import dev.lacewing.storage.tck.TestAggregate;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What is particular to the packed layout: pages, compaction, the index; {@link CompactTableContractTest} runs the table contract. */
class CompactTableTest {

    /** What the model holds for a key: a string or an object, and its expiry. */
    private record Entry(byte[] string, Object object, long expireAt) {
    }

    private record Opaque(int id) implements Aggregate {
        @Override
        public String typeName() {
            return "hash";
        }

        @Override
        public String encoding() {
            return "listpack";
        }

        @Override
        public Aggregate copy() {
            return new Opaque(id);
        }

        @Override
        public long memoryUsage() {
            return 40;
        }
    }

    /**
     * Random puts (small, same-size, large, object values; with and without expiry), expiry
     * changes, removes, lookups, in-place edits that grow strings across the page sizes, time
     * passing, active expiry, random keys and scans, checked
     * against a HashMap after every step, and the page invariants checked throughout.
     */
    @Test
    void agreesWithAHashMapModelUnderEveryOperation() {
        for (int seed = 0; seed < 12; seed++) {
            Random random = new Random(seed);
            // Every fourth seed's index has 64-slot segments whose splits read hash bits past the 8th from
            // the keys, as a large index's do past the 24 its tags hold.
            CompactTable table = seed % 4 == 1
                ? new CompactTable(new TestAccessPolicy(), TestAggregate.CODEC, System::currentTimeMillis, 6, 8) : newTable();
            Map<String, Entry> model = new HashMap<>();
            List<String> names = new ArrayList<>();
            int keySpace = 50 + random.nextInt(seed % 3 == 0 ? 60 : 3000);
            for (int i = 0; i < keySpace; i++) {
                names.add("key:" + i + ":" + "x".repeat(random.nextInt(40)));
            }
            long now = 1000;
            ValueView view = new ValueView();
            for (int step = 0; step < 30_000; step++) {
                String name = names.get(random.nextInt(names.size()));
                byte[] key = bytes(name);
                int op = random.nextInt(100);
                if (op < 35) {
                    byte[] value = randomValue(random, model.get(name));
                    long expireAt = random.nextInt(4) == 0 ? now + 1 + random.nextInt(50) : Keyspace.NO_EXPIRY;
                    if (random.nextBoolean()) {
                        byte[] padded = new byte[value.length + 7];
                        System.arraycopy(value, 0, padded, 3, value.length);
                        byte[] paddedKey = new byte[key.length + 5];
                        System.arraycopy(key, 0, paddedKey, 2, key.length);
                        table.putString(paddedKey, 2, key.length, padded, 3, value.length, expireAt);
                    } else {
                        table.put(key, 0, key.length, value, expireAt);
                    }
                    model.put(name, new Entry(value, null, expireAt));
                } else if (op < 40) {
                    Aggregate object = new Opaque(step);
                    table.put(key, 0, key.length, object, Keyspace.NO_EXPIRY);
                    model.put(name, new Entry(null, object, Keyspace.NO_EXPIRY));
                } else if (op < 48) {
                    Entry old = live(model, name, now);
                    byte[] value = randomValue(random, old);
                    table.putKeepExpiry(key, 0, key.length, value, now);
                    model.put(name, new Entry(value, null, old == null ? Keyspace.NO_EXPIRY : old.expireAt()));
                } else if (op < 58) {
                    Entry old = live(model, name, now);
                    long expireAt = random.nextInt(3) == 0 ? Keyspace.NO_EXPIRY : now + 1 + random.nextInt(50);
                    assertEquals(old != null, table.setExpireAt(key, 0, key.length, expireAt, now));
                    if (old != null) {
                        model.put(name, new Entry(old.string(), old.object(), expireAt));
                    } else {
                        model.remove(name);
                    }
                } else if (op < 70) {
                    Entry old = live(model, name, now);
                    assertEquals(old != null, table.remove(key, 0, key.length, now));
                    model.remove(name);
                } else if (op < 80) {
                    Entry old = live(model, name, now);
                    assertEquals(old == null ? -2 : old.expireAt(), table.expireAt(key, 0, key.length, now));
                    if (old == null) {
                        model.remove(name);
                    }
                } else if (op < 85) {
                    now += random.nextInt(5);
                } else if (op < 90) {
                    table.expireSome(now, 1 + random.nextInt(200));
                } else if (op < 93) {
                    byte[] picked = table.randomKey(now);
                    if (picked != null) {
                        assertNotNull(live(model, text(picked), now), "random key not live");
                    }
                } else if (op < 97) {
                    Entry old = live(model, name, now);
                    if (old != null && old.object() != null) {
                        assertFalse(table.editString(key, 0, key.length, 1, now, view));
                        continue;
                    }
                    byte[] string = old == null ? new byte[0] : old.string();
                    int minLength = editLength(random, string.length);
                    assertTrue(table.editString(key, 0, key.length, minLength, now, view));
                    byte[] edited = Arrays.copyOf(string, Math.max(string.length, minLength));
                    assertArrayEquals(edited, Arrays.copyOfRange(view.array(), view.offset(), view.offset() + view.length()),
                        "edited string before the write");
                    int at = random.nextInt(edited.length + 1);
                    byte[] patch = new byte[random.nextInt(edited.length - at + 1)];
                    random.nextBytes(patch);
                    view.write(at, patch, 0, patch.length);
                    System.arraycopy(patch, 0, edited, at, patch.length);
                    model.put(name, new Entry(edited, null, old == null ? Keyspace.NO_EXPIRY : old.expireAt()));
                } else {
                    Entry old = live(model, name, now);
                    assertEquals(old != null, table.getValue(key, 0, key.length, now, view));
                    if (old == null) {
                        model.remove(name);
                    } else if (old.string() != null) {
                        assertTrue(view.isString());
                        assertArrayEquals(old.string(),
                            Arrays.copyOfRange(view.array(), view.offset(), view.offset() + view.length()));
                    } else {
                        assertSame(old.object(), view.object());
                    }
                }
                checkPages(table);
                if (step % 100 == 99) {
                    assertNull(table.indexFault(), seed + "/" + step);
                }
                if (step % 1000 == 999) {
                    checkAgainstModel(table, model, now, seed + "/" + step);
                }
            }
            checkAgainstModel(table, model, now, "seed " + seed);
            // Everything deleted: the table gives back all its pages.
            for (String name : names) {
                byte[] key = bytes(name);
                table.remove(key, 0, key.length, now);
            }
            assertEquals(0, table.size());
            assertEquals(0, table.expiringSize());
            assertEquals(0, table.liveBytes());
            assertTrue(table.pageCount() <= 1, "pages left: " + table.pageCount());
        }
    }

    /**
     * A length to edit a string of {@code length} bytes to: the same or less, a little more, or
     * up to a page more while the string is under a megabyte.
     */
    private static int editLength(Random random, int length) {
        return switch (random.nextInt(4)) {
            case 0 -> random.nextInt(length + 1);
            case 1 -> length + random.nextInt(100);
            case 2 -> length + random.nextInt(CompactTable.LARGE_ENTRY);
            default -> length + random.nextInt(length < 4 * CompactTable.PAGE_SIZE ? CompactTable.PAGE_SIZE : 100);
        };
    }

    private static byte[] randomValue(Random random, Entry old) {
        int kind = random.nextInt(10);
        int length;
        if (kind == 0 && old != null && old.string() != null) {
            length = old.string().length;
        } else if (kind == 1) {
            length = CompactTable.LARGE_ENTRY + random.nextInt(1000);
        } else if (kind == 2) {
            length = 200 + random.nextInt(2000);
        } else {
            length = random.nextInt(40);
        }
        byte[] value = new byte[length];
        random.nextBytes(value);
        return value;
    }

    /** The model's entry if live; a key whose time has passed is dropped from the model. */
    private static Entry live(Map<String, Entry> model, String name, long now) {
        Entry entry = model.get(name);
        if (entry != null && entry.expireAt() != Keyspace.NO_EXPIRY && entry.expireAt() <= now) {
            model.remove(name);
            return null;
        }
        return entry;
    }

    /**
     * Every page but the open one is at least half live, and the accounting adds up: the bytes
     * held stay within twice the live bytes plus one open page and the index.
     */
    private static void checkPages(CompactTable table) {
        long pageBytes = table.usedMemory() - (long) table.capacity() * 8;
        assertTrue(table.liveBytes() >= 0);
        assertTrue(pageBytes <= 2 * table.liveBytes() + 2L * CompactTable.PAGE_SIZE + 64 * 1024,
            "pages hold " + pageBytes + " bytes for " + table.liveBytes() + " live");
    }

    private static void checkAgainstModel(CompactTable table, Map<String, Entry> model, long now, String where) {
        model.entrySet().removeIf(e -> e.getValue().expireAt() != Keyspace.NO_EXPIRY && e.getValue().expireAt() <= now);
        Set<String> scanned = new HashSet<>();
        long cursor = 0;
        do {
            cursor = table.scan(cursor, 10, now, key -> scanned.add(text(key)));
        } while (cursor != 0);
        assertEquals(model.keySet(), scanned, where);
        for (Map.Entry<String, Entry> e : model.entrySet()) {
            byte[] key = bytes(e.getKey());
            Object value = table.get(key, 0, key.length, now);
            if (e.getValue().string() != null) {
                assertArrayEquals(e.getValue().string(), (byte[]) value, where + " " + e.getKey());
            } else {
                assertSame(e.getValue().object(), value, where);
            }
            assertEquals(e.getValue().expireAt(), table.expireAt(key, 0, key.length, now), where);
        }
        // Keys past their time may still be in the table until looked up or swept.
        assertTrue(table.size() >= model.size(), where);
        long expiring = model.values().stream().filter(entry -> entry.expireAt() != Keyspace.NO_EXPIRY).count();
        assertTrue(table.expiringSize() >= expiring, where);
    }

    /** An aggregate whose size changes in place, as a hash does under HSET. */
    private static final class Growing implements Aggregate {
        long bytes = 100;

        @Override
        public String typeName() {
            return "list";
        }

        @Override
        public String encoding() {
            return "quicklist";
        }

        @Override
        public Aggregate copy() {
            Growing copy = new Growing();
            copy.bytes = bytes;
            return copy;
        }

        @Override
        public long memoryUsage() {
            return bytes;
        }
    }

    @Test
    void aSegmentFillsToSevenEighthsInRobinHoodOrderThenSplitsAndStaysSoThroughDeletes() {
        CompactTable table = newTable();
        int full = 4096 * 7 / 8;
        for (int i = 0; i < full; i++) {
            byte[] key = bytes("k" + i);
            table.put(key, 0, key.length, key, Keyspace.NO_EXPIRY);
        }
        assertEquals(4096, table.capacity(), "capacity at " + full + " keys");
        assertNull(table.indexFault());
        byte[] next = bytes("k" + full);
        table.put(next, 0, next.length, next, Keyspace.NO_EXPIRY);
        assertEquals(8192, table.capacity());
        Random random = new Random(7);
        ValueView view = new ValueView();
        Set<Integer> present = new HashSet<>();
        for (int i = 0; i <= full; i++) {
            present.add(i);
        }
        for (int step = 0; step < 20_000; step++) {
            int i = random.nextInt(2 * full);
            byte[] key = bytes("k" + i);
            int op = random.nextInt(3);
            if (op == 0) {
                assertEquals(present.remove(i), table.remove(key, 0, key.length, 0), "remove k" + i);
            } else if (op == 1) {
                table.put(key, 0, key.length, key, Keyspace.NO_EXPIRY);
                present.add(i);
            } else {
                assertEquals(present.contains(i), table.getValue(key, 0, key.length, 0, view), "get k" + i);
            }
            if (step % 500 == 0) {
                assertNull(table.indexFault(), "step " + step);
            }
        }
        assertNull(table.indexFault());
        assertEquals(present.size(), table.size());
    }

    @Test
    void anAggregateChangedInPlaceIsRecountedWhenReportedModified() {
        CompactTable table = newTable();
        byte[] key = bytes("queue");
        Growing list = new Growing();
        table.put(key, 0, key.length, list, -1);
        long before = table.usedMemory();
        list.bytes = 1100;
        table.modified(key, 0, key.length, 0);
        assertEquals(before + 1000, table.usedMemory());
        table.remove(key, 0, key.length, 0);
        table.put(key, 0, key.length, new Growing(), -1);
        assertEquals(before, table.usedMemory());
    }

    @Test
    void anOverwriteOfTheSameSizeIsWrittenInPlace() {
        CompactTable table = newTable();
        byte[] key = bytes("counter");
        table.put(key, 0, key.length, bytes("0001"), 5000);
        long used = table.usedMemory();
        ValueView view = new ValueView();
        table.getValue(key, 0, key.length, 0, view);
        int offset = view.offset();
        byte[] page = view.array();
        table.put(key, 0, key.length, bytes("0002"), 6000);
        table.getValue(key, 0, key.length, 0, view);
        assertSame(page, view.array());
        assertEquals(offset, view.offset());
        assertEquals("0002", new String(page, offset, 4, StandardCharsets.US_ASCII));
        assertEquals(6000, table.expireAt(key, 0, key.length, 0));
        assertEquals(used, table.usedMemory());
    }

    @Test
    void overwritesAndDeletesCompactPagesSoMemoryFollowsTheLiveData() {
        CompactTable table = newTable();
        int keys = 50_000;
        putKeys(table, keys, 32);
        long full = table.usedMemory();
        // Grow every value: each entry is rewritten elsewhere and its old copy dies.
        putKeys(table, keys, 33);
        assertTrue(table.usedMemory() < full * 3 / 2, table.usedMemory() + " after rewriting, from " + full);
        // Delete nine in ten: pages are compacted or dropped.
        for (int i = 0; i < keys; i++) {
            if (i % 10 != 0) {
                byte[] key = bytes("key:" + i);
                assertTrue(table.remove(key, 0, key.length, 0));
            }
        }
        long slotBytes = (long) table.capacity() * 8;
        // Beyond twice the live bytes: the open page's unfilled end and the spare page.
        assertTrue(table.usedMemory() - slotBytes <= 2 * table.liveBytes() + 2 * CompactTable.PAGE_SIZE + 1024,
            "pages " + (table.usedMemory() - slotBytes) + " for " + table.liveBytes() + " live bytes");
        for (int i = 0; i < keys; i += 10) {
            byte[] key = bytes("key:" + i);
            assertEquals(33, ((byte[]) table.get(key, 0, key.length, 0)).length);
        }
    }

    /**
     * A run of appends into a string's own page moves the entry only when the room runs out, and
     * the room is counted as live until a new value is stored under the key.
     */
    @Test
    void aStringEditedPastItsEndGrowsIntoRoomOfItsOwnPageThatIsCountedLive() {
        CompactTable table = newTable();
        byte[] key = bytes("log");
        ValueView view = new ValueView();
        int chunk = 1000;
        int moves = 0;
        byte[] page = null;
        for (int length = chunk; length <= 1_000_000; length += chunk) {
            assertTrue(table.editString(key, 0, key.length, length, 0, view));
            Arrays.fill(view.array(), view.offset() + length - chunk, view.offset() + length, (byte) (length / chunk));
            assertEquals(length, view.length());
            if (view.array() != page) {
                page = view.array();
                moves++;
            }
            if (view.length() >= CompactTable.LARGE_ENTRY) {
                // One entry in its own page: the whole page is live, its room included.
                assertEquals(page.length, table.liveBytes());
                assertEquals(16 + page.length - view.offset(), table.valueMemory(key, 0, key.length, 0));
            }
        }
        // In shared pages every growth moves the entry (at most 64 KiB a copy); from there, doubling:
        // 128 KiB, 256 KiB, 512 KiB, 1 MiB, 2 MiB (past 1 MiB a string goes to chunks, see DatabaseTableTest).
        assertTrue(moves <= CompactTable.LARGE_ENTRY / chunk + 8, moves + " moves");
        byte[] value = (byte[]) table.get(key, 0, key.length, 0);
        assertEquals(1_000_000, value.length);
        for (int i = 0; i < value.length; i++) {
            assertEquals((byte) (i / chunk + 1), value[i], "byte " + i);
        }
        assertEquals(StringEncoding.RAW, table.stringEncoding(key, 0, key.length, 0));
        long withRoom = table.usedMemory();
        long room = table.valueMemory(key, 0, key.length, 0) - 16 - value.length;
        assertTrue(room > 0 && room <= EditedString.MAX_PREALLOC, "room " + room);
        table.put(key, 0, key.length, value, Keyspace.NO_EXPIRY);
        assertEquals(16 + value.length, table.valueMemory(key, 0, key.length, 0), "a stored value has no room");
        // The room goes, and so does the padding of the length varint (5 bytes, where 3 hold 1,000,000).
        assertEquals(withRoom - room - 2, table.usedMemory());
        table.getValue(key, 0, key.length, 0, view);
        assertEquals(view.array().length, table.liveBytes(), "an entry of its exact size");
        table.remove(key, 0, key.length, 0);
        assertEquals(0, table.liveBytes());
        assertEquals(1, table.pageCount(), "the open page, emptied when the string left it");
    }

    @Test
    void deletesSpreadOverEveryPageKeepThePagesWithinASixteenthOfTheLiveBytesOrThreePages() {
        CompactTable table = newTable();
        int keys = 50_000;
        putKeys(table, keys, 100);
        // Two in five, spread evenly: no page falls under half live on its own.
        for (int i = 0; i < keys; i++) {
            if (i % 5 < 2) {
                byte[] key = bytes("key:" + i);
                assertTrue(table.remove(key, 0, key.length, 0));
            }
        }
        long pages = table.usedMemory() - table.liveMemory() + table.liveBytes();
        // 3.4 MB live: a 16th of the pages dead, or three of the open page's length (256 KiB, opened
        // at 5.7 MB live), the open page and two spares of the 128 KiB pages filled first. Without
        // the bound the pages would hold 5.7 MB.
        long live = table.liveBytes();
        assertTrue(pages <= Math.max(live * 16 / 15, live + 3 * CompactTable.PAGE_SIZE) + CompactTable.PAGE_SIZE + 2 * 128 * 1024,
            "pages " + pages + " for " + table.liveBytes() + " live bytes");
        for (int i = 0; i < keys; i++) {
            byte[] key = bytes("key:" + i);
            assertEquals(i % 5 < 2 ? null : 100, i % 5 < 2 ? table.get(key, 0, key.length, 0)
                : (Object) ((byte[]) table.get(key, 0, key.length, 0)).length);
        }
        assertNull(table.indexFault());
    }

    /**
     * A table of a few dozen pages may hold three of them dead before the bound compacts one: a
     * 16th of it would be a page or two, and pages nearly as live as the rest would be copied.
     */
    @Test
    void aSmallTableMayHoldThreePagesDeadBeforeTheBoundCompacts() {
        CompactTable table = newTable();
        int keys = 24_000;
        putKeys(table, keys, 256);
        int pageCount = table.pageCount();
        // One in eight, spread evenly: about 800 KB dead, more than a 16th of the 6.5 MB of pages
        // and the open page, fewer than three 256 KiB pages and the open page.
        for (int i = 0; i < keys; i += 8) {
            byte[] key = bytes("key:" + i);
            assertTrue(table.remove(key, 0, key.length, 0));
        }
        assertEquals(pageCount, table.pageCount());
        long pages = table.usedMemory() - table.liveMemory() + table.liveBytes();
        assertTrue(pages <= table.liveBytes() * 16 / 15 + 4 * CompactTable.PAGE_SIZE,
            "pages " + pages + " for " + table.liveBytes() + " live bytes");
        // One in four: past three pages dead, the sparsest pages are compacted. Three pages, the
        // open page and the two spares the dropped pages leave.
        for (int i = 4; i < keys; i += 8) {
            byte[] key = bytes("key:" + i);
            assertTrue(table.remove(key, 0, key.length, 0));
        }
        assertTrue(table.pageCount() < pageCount);
        pages = table.usedMemory() - table.liveMemory() + table.liveBytes();
        assertTrue(pages <= table.liveBytes() + 6 * CompactTable.PAGE_SIZE,
            "pages " + pages + " for " + table.liveBytes() + " live bytes");
        assertNull(table.indexFault());
    }

    @Test
    void expiryIsAddedAndRemovedByRewritingTheEntry() {
        CompactTable table = newTable();
        byte[] key = bytes("k");
        table.put(key, 0, key.length, bytes("value"), Keyspace.NO_EXPIRY);
        assertTrue(table.setExpireAt(key, 0, key.length, 100, 0));
        assertEquals(1, table.expiringSize());
        assertEquals(100, table.expireAt(key, 0, key.length, 0));
        assertTrue(table.setExpireAt(key, 0, key.length, Keyspace.NO_EXPIRY, 0));
        assertEquals(0, table.expiringSize());
        assertArrayEquals(bytes("value"), (byte[]) table.get(key, 0, key.length, 1000));
        assertTrue(table.setExpireAt(key, 0, key.length, 100, 0));
        assertNull(table.get(key, 0, key.length, 100));
        assertEquals(1, table.expiredCount());
        assertFalse(table.remove(key, 0, key.length, 0));
    }

    @Test
    void usedMemoryCountsEntriesPackedWithoutAnObjectEach() {
        CompactTable table = newTable();
        for (int i = 0; i < 100_000; i++) {
            byte[] key = bytes(String.format("key:%012d", i));
            table.put(key, 0, key.length, new byte[8], Keyspace.NO_EXPIRY);
        }
        // 16-byte key, 8-byte value: 30 bytes packed (a 4-byte header of flags and access field), plus the index.
        assertEquals(100_000L * 30, table.liveBytes());
        double perKey = (double) table.usedMemory() / 100_000;
        assertTrue(perKey < 30 + 8 / 0.375 + 3, "bytes per key: " + perKey);
    }

    /** Tables with 16-slot segments: hash bits past the 24th, then past the 8th, read from the keys. */
    private static List<CompactTable> smallSegmentTables() {
        return List.of(new CompactTable(new TestAccessPolicy(), TestAggregate.CODEC, System::currentTimeMillis, 4, 24),
            new CompactTable(new TestAccessPolicy(), TestAggregate.CODEC, System::currentTimeMillis, 4, 8));
    }

    @Test
    void keysStayFindableWithTheirExpiryThroughSplitsAndDeletesAcrossSegments() {
        for (CompactTable table : smallSegmentTables()) {
            int keys = 5000;
            for (int i = 0; i < keys; i++) {
                byte[] key = bytes("key:" + i);
                table.put(key, 0, key.length, key, i % 3 == 0 ? 1_000_000 + i : Keyspace.NO_EXPIRY);
                if (i % 97 == 0) {
                    assertNull(table.indexFault(), "after " + i);
                }
            }
            assertNull(table.indexFault());
            assertTrue(table.capacity() >= keys * 8 / 7, "capacity " + table.capacity());
            assertEquals((keys + 2) / 3, table.expiringSize());
            for (int i = 0; i < keys; i++) {
                byte[] key = bytes("key:" + i);
                assertEquals(i % 3 == 0 ? 1_000_000 + i : Keyspace.NO_EXPIRY, table.expireAt(key, 0, key.length, 0));
            }
            for (int i = 0; i < keys; i += 2) {
                byte[] key = bytes("key:" + i);
                assertTrue(table.remove(key, 0, key.length, 0), "remove " + i);
            }
            assertNull(table.indexFault());
            assertEquals(keys / 2, table.size());
            ValueView view = new ValueView();
            for (int i = 0; i < keys; i++) {
                byte[] key = bytes("key:" + i);
                assertEquals(i % 2 == 1, table.getValue(key, 0, key.length, 0, view), "key:" + i);
            }
            // Active expiry finds every expiring key left, in whichever segment it sits.
            int expired = 0;
            for (int round = 0; round < 1000 && table.expiringSize() > 0; round++) {
                expired += table.expireSome(2_000_000, 64);
            }
            assertEquals(0, table.expiringSize());
            assertEquals(keys / 2 - expired, table.size());
            assertNull(table.indexFault());
        }
    }

    @Test
    void aScanVisitsEveryStableKeyWhileSplitsHappenBetweenCalls() {
        for (CompactTable table : smallSegmentTables()) {
            Set<String> stable = new HashSet<>();
            for (int i = 0; i < 300; i++) {
                byte[] key = bytes("stable:" + i);
                table.put(key, 0, key.length, key, Keyspace.NO_EXPIRY);
                stable.add("stable:" + i);
            }
            Set<String> visited = new HashSet<>();
            long cursor = 0;
            int added = 0;
            int calls = 0;
            do {
                cursor = table.scan(cursor, 1, 0, key -> visited.add(text(key)), key -> { });
                for (int i = 0; i < 12 && added < 3000; i++, added++) {
                    byte[] key = bytes("new:" + added);
                    table.put(key, 0, key.length, key, Keyspace.NO_EXPIRY);
                    if (added % 3 == 0) {
                        byte[] old = bytes("new:" + added / 2);
                        table.remove(old, 0, old.length, 0);
                    }
                }
                assertTrue(++calls < 1_000_000, "the scan ends");
            } while (cursor != 0);
            assertTrue(table.capacity() >= 16 * 64, "the scan saw splits: capacity " + table.capacity());
            assertTrue(visited.containsAll(stable), "stable keys missed: " + stable.stream()
                .filter(key -> !visited.contains(key)).toList());
            assertNull(table.indexFault());
        }
    }

    @Test
    void randomKeysAndSamplesReachEverySegment() {
        for (CompactTable table : smallSegmentTables()) {
            for (int i = 0; i < 2000; i++) {
                byte[] key = bytes("key:" + i);
                table.put(key, 0, key.length, key, i % 2 == 0 ? 1_000_000 : Keyspace.NO_EXPIRY);
            }
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < 20_000; i++) {
                seen.add(text(table.randomKey(0)));
            }
            assertTrue(seen.size() > 1900, seen.size() + " keys of 2000 picked");
            Set<String> sampled = new HashSet<>();
            for (int i = 0; i < 2000; i++) {
                table.sample(5, true, (key, offset, length, access, expireAt) -> {
                    assertEquals(1_000_000, expireAt);
                    sampled.add(new String(key, offset, length, StandardCharsets.US_ASCII));
                });
            }
            assertTrue(sampled.size() > 950, sampled.size() + " volatile keys of 1000 sampled");
        }
    }

    /**
     * The index is counted as allocated: a put that neither opens a page nor grows the index
     * changes nothing, a growth step adds its slots (and the directory's few bytes), and a table
     * emptied of its keys counts what a new one does.
     */
    @Test
    void memoryIsCountedExactlyThroughSplits() {
        for (CompactTable table : smallSegmentTables()) {
            long empty = table.usedMemory();
            for (int i = 0; i < 5000; i++) {
                byte[] key = bytes("key:" + i);
                long before = table.usedMemory();
                int capacity = table.capacity();
                int pages = table.pageCount();
                table.put(key, 0, key.length, key, Keyspace.NO_EXPIRY);
                long grown = table.usedMemory() - before;
                if (table.pageCount() == pages) {
                    long slots = (table.capacity() - capacity) * 8L;
                    assertTrue(grown >= slots && grown <= slots + 64 * 1024,
                        "put " + i + " grew the count by " + grown + " for " + slots + " bytes of slots");
                    if (table.capacity() == capacity) {
                        assertEquals(0, grown, "put " + i);
                    }
                }
            }
            for (int i = 0; i < 5000; i++) {
                byte[] key = bytes("key:" + i);
                assertTrue(table.remove(key, 0, key.length, 0));
            }
            assertEquals(empty, table.usedMemory());
        }
    }

    /** Stores keys "key:0" to "key:{keys - 1}", each a zeroed value of {@code valueLength} bytes. */
    private static void putKeys(CompactTable table, int keys, int valueLength) {
        for (int i = 0; i < keys; i++) {
            byte[] key = bytes("key:" + i);
            table.put(key, 0, key.length, new byte[valueLength], Keyspace.NO_EXPIRY);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A table on the system clock, under the contract's access policy and aggregates. */
    private static CompactTable newTable() {
        return new CompactTable(new TestAccessPolicy(), TestAggregate.CODEC, System::currentTimeMillis);
    }

    @Test
    void scanCursorsAreUnsignedAndThoseBeyondTheTableEndTheScan() {
        Table table = newTable();
        byte[] k = bytes("k");
        table.put(k, 0, 1, bytes("v"), Keyspace.NO_EXPIRY);
        List<byte[]> visited = new ArrayList<>();
        assertEquals(0, table.scan(table.capacity(), 10, 0, visited::add));
        assertEquals(0, table.scan(Long.MIN_VALUE, 10, 0, visited::add));
        assertEquals(0, table.scan(-1L, 10, 0, visited::add));
        assertTrue(visited.isEmpty());
    }

    @Test
    void aDeletionDuringAScanCannotShiftAnUnvisitedKeyBehindTheCursor() {
        Table table = newTable();
        // Three keys homed at the last slot of 16: stored at slots 15, 0 and 1, a cluster wrapping round.
        List<byte[]> wrapping = keysHomedAt(15, 16, 3);
        for (byte[] key : wrapping) {
            table.put(key, 0, key.length, bytes("v"), Keyspace.NO_EXPIRY);
        }
        Set<String> seen = new HashSet<>();
        long cursor = table.scan(0, 1, 0, key -> seen.add(text(key)));
        byte[] first = wrapping.get(0);
        // Backward shift moves the keys at slots 0 and 1 to 15 and 0.
        assertTrue(table.remove(first, 0, first.length, 0));
        while (cursor != 0) {
            cursor = table.scan(cursor, 1, 0, key -> seen.add(text(key)));
        }
        assertEquals(Set.of(text(wrapping.get(1)), text(wrapping.get(2))), seen);
    }

    @Test
    void growthDuringAScanNeitherLosesNorRepeatsKeys() {
        Table table = newTable();
        Set<String> original = new HashSet<>();
        for (int i = 0; i < 12; i++) {
            put(table, "k" + i, Keyspace.NO_EXPIRY);
            original.add("k" + i);
        }
        int capacity = table.capacity();
        List<String> visited = new ArrayList<>();
        long cursor = table.scan(0, 5, 0, key -> visited.add(text(key)));
        assertTrue(cursor != 0);
        for (int i = 0; i < 110; i++) {
            put(table, "grow" + i, Keyspace.NO_EXPIRY);
        }
        assertEquals(capacity * 16, table.capacity());
        while (cursor != 0) {
            cursor = table.scan(cursor, 3, 0, key -> visited.add(text(key)));
        }
        assertEquals(visited.size(), new HashSet<>(visited).size(), "a key was visited twice: " + visited);
        assertTrue(visited.containsAll(original));
    }

    /**
     * APPEND's pattern through editString: the string moves only when its room runs out (doubling
     * up to 1 MiB), then goes to chunks that are never copied again; it keeps its expiry and is raw;
     * the room is counted in usedMemory and valueMemory alike, and a value stored under the key has none.
     */
    @Test
    void aRunOfEditsPastTheEndGrowsIntoRoomThatIsCountedUntilANewValueIsStored() {
        CompactTable table = newTable();
        byte[] k = bytes("log");
        ValueView view = new ValueView();
        byte[] other = bytes("other");
        table.put(other, 0, other.length, bytes("x"), Keyspace.NO_EXPIRY);
        table.put(k, 0, k.length, bytes("start"), Keyspace.NO_EXPIRY);
        table.setExpireAt(k, 0, k.length, Long.MAX_VALUE - 1, 0);
        byte[] expected = new byte[12_000_000];
        System.arraycopy(bytes("start"), 0, expected, 0, 5);
        int length = 5;
        int moves = 0;
        Object storage = null;
        int chunk = 10_000;
        while (length + chunk <= expected.length) {
            assertTrue(table.editString(k, 0, k.length, length + chunk, 0, view));
            for (int i = 0; i < chunk; i++) {
                expected[length + i] = (byte) (length + i);
            }
            view.write(length, expected, length, chunk);
            length += chunk;
            Object now = view.isChunked() ? view.chunks()[0] : view.array();
            if (now != storage && length > 256 * 1024) {
                moves++;
            }
            storage = now;
        }
        // Past 256 KiB: 512 KiB, 1 MiB, 2 MiB of one array, then into chunks once.
        assertTrue(moves <= 4, moves + " moves");
        assertTrue(view.isChunked(), "past 1 MiB the string is in chunks");
        assertArrayEquals(Arrays.copyOf(expected, length), (byte[]) table.get(k, 0, k.length, 0));
        assertEquals(Long.MAX_VALUE - 1, table.expireAt(k, 0, k.length, 0));
        assertEquals(StringEncoding.RAW, table.stringEncoding(k, 0, k.length, 0));

        CompactTable stored = newTable();
        stored.put(other, 0, other.length, bytes("x"), Keyspace.NO_EXPIRY);
        stored.put(k, 0, k.length, Arrays.copyOf(expected, length), Long.MAX_VALUE - 1);
        long room = table.valueMemory(k, 0, k.length, 0) - stored.valueMemory(k, 0, k.length, 0);
        long chunkHeaders = 24L * (length / EditedString.CHUNK + 8);
        assertTrue(room >= EditedString.MAX_PREALLOC - EditedString.CHUNK
            && room <= EditedString.MAX_PREALLOC + EditedString.CHUNK + chunkHeaders, "room " + room);
        long uncounted = table.usedMemory() - table.spareBytes() - stored.usedMemory() + stored.spareBytes() - room;
        // Compact: the entry that points into the side table, and that table's first slot arrays;
        // and a small page the string's moves left open (a small table's pages grow with its
        // entries). Dropped pages kept as spares are counted, but are no value's.
        assertTrue(uncounted >= 0 && uncounted <= 256 + CompactTable.MIN_PAGE_SIZE, uncounted + " bytes held beyond the value's count");

        byte[] copy = (byte[]) table.get(k, 0, k.length, 0);
        assertTrue(table.editString(k, 0, k.length, 1, 0, view));
        view.setByteAt(0, (byte) 'S');
        assertEquals('s', copy[0], "what get returned is not edited");
        assertEquals('S', ((byte[]) table.get(k, 0, k.length, 0))[0], "the edit is in the string");
        assertEquals(length, view.length(), "an edit within the string leaves its length");

        table.put(k, 0, k.length, Arrays.copyOf(expected, length), Keyspace.NO_EXPIRY);
        assertEquals(stored.valueMemory(k, 0, k.length, 0), table.valueMemory(k, 0, k.length, 0));
        assertEquals(-1, table.valueMemory(bytes("missing"), 0, 7, 0));
    }

    /**
     * A chunked string the table lets go of (deleted, overwritten, expired, flushed) keeps no
     * reference to its chunks, so a dead chunk list in the old generation cannot hold them from
     * G1's eager reclaim ({@link EditedString#release}); one that only moves (a new expiry) keeps them.
     */
    @Test
    void aChunkedStringTheTableLetsGoOfHoldsNoChunks() {
        long[] now = {0};
        Table table = new CompactTable(new TestAccessPolicy(), TestAggregate.CODEC, () -> now[0]);
        ValueView view = new ValueView();
        byte[] k = bytes("k");
        int length = EditedString.MAX_PREALLOC + 2 * EditedString.CHUNK;
        List<String> ways = List.of("remove", "overwrite", "expire", "clear");
        for (String way : ways) {
            table.put(bytes("other"), 0, 5, bytes("x"), Keyspace.NO_EXPIRY);
            table.put(k, 0, k.length, bytes("start"), Keyspace.NO_EXPIRY);
            assertTrue(table.editString(k, 0, k.length, length, now[0], view));
            assertTrue(view.isChunked());
            byte[][] chunks = view.chunks();
            view.clear();
            table.setExpireAt(k, 0, k.length, now[0] + 10, now[0]);
            assertTrue(table.getValue(k, 0, k.length, now[0], view) && view.chunks() == chunks,
                "a new expiry moves the string, chunks and all");
            assertTrue(Arrays.stream(chunks).limit(3).allMatch(chunk -> chunk != null));
            view.clear();
            switch (way) {
                case "remove" -> assertTrue(table.remove(k, 0, k.length, now[0]));
                case "overwrite" -> table.put(k, 0, k.length, bytes("short"), Keyspace.NO_EXPIRY);
                case "expire" -> {
                    now[0] += 20;
                    assertNull(table.get(k, 0, k.length, now[0]));
                }
                default -> table.clear();
            }
            assertTrue(Arrays.stream(chunks).allMatch(chunk -> chunk == null), way + " leaves chunks referenced");
            table.remove(k, 0, k.length, now[0]);
        }
    }

    @Test
    void editingAMissingKeyCreatesZerosWithoutRoomAndAnotherTypeIsLeftAlone() {
        Table table = newTable();
        CompactTable stored = newTable();
        ValueView view = new ValueView();
        for (int length : new int[] {1, 100, 100_000, 3_000_000}) {
            byte[] k = bytes("new" + length);
            assertTrue(table.editString(k, 0, k.length, length, 0, view));
            assertEquals(length, view.length());
            stored.put(k, 0, k.length, new byte[length], Keyspace.NO_EXPIRY);
            assertArrayEquals(new byte[length], (byte[]) table.get(k, 0, k.length, 0));
            long extra = table.valueMemory(k, 0, k.length, 0) - stored.valueMemory(k, 0, k.length, 0);
            // In chunks (past 1 MiB) the last chunk's unused end and each chunk's header.
            long chunked = length > EditedString.MAX_PREALLOC
                ? EditedString.CHUNK + 24L * (length / EditedString.CHUNK + 1) + 32 : 0;
            assertTrue(extra >= 0 && extra <= EditedString.OBJECT_BYTES + chunked, "no room: " + extra);
            assertEquals(Keyspace.NO_EXPIRY, table.expireAt(k, 0, k.length, 0));
            assertEquals(StringEncoding.RAW, table.stringEncoding(k, 0, k.length, 0));
        }
        byte[] k = bytes("list");
        Object aggregate = new TestAggregate(bytes("large"), false);
        table.put(k, 0, k.length, aggregate, Keyspace.NO_EXPIRY);
        long used = table.usedMemory();
        assertFalse(table.editString(k, 0, k.length, 10, 0, view));
        assertSame(aggregate, table.get(k, 0, k.length, 0));
        assertEquals(used, table.usedMemory());
    }

    /** Keys whose home slot in a table of {@code capacity} slots is {@code home}. */
    private static List<byte[]> keysHomedAt(int home, int capacity, int howMany) {
        List<byte[]> found = new ArrayList<>();
        for (int i = 0; found.size() < howMany; i++) {
            byte[] key = bytes("h" + i);
            if ((KeyHash.of(key, 0, key.length) & (capacity - 1)) == home) {
                found.add(key);
            }
        }
        return found;
    }

    private static void put(Table table, String key, long expireAt) {
        byte[] k = bytes(key);
        table.put(k, 0, k.length, bytes("v"), expireAt);
    }
}
