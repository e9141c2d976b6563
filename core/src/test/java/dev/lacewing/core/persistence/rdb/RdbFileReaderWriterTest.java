package dev.lacewing.core.persistence.rdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.ValueView;
import dev.lacewing.core.datatype.Quicklist;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The RDB file writer and reader over channels: framing, the read window, the checksum trailer. */
class RdbFileReaderWriterTest {

    private static final RdbValueCodec.Encodings ENCODINGS = new RdbValueCodec.Encodings(512, 64, 512, 128, 64, -2, 0);

    private record Entry(int database, byte[] key, Object value, long expireAt, long idleSeconds, int frequency) {
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A file of 3000 small strings in database 0, a 300 KB string and a list in database 5. */
    private static byte[] file(boolean checksum) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RdbFileWriter writer = new RdbFileWriter(Channels.newChannel(bytes), true, checksum);
        writer.header();
        writer.aux("redis-ver", "7.0.15");
        writer.aux("redis-bits", "64");
        writer.database(0, 3000, 1);
        for (int i = 0; i < 3000; i++) {
            writer.entry(bytes("key:" + i), bytes("value:" + i), i == 7 ? 1_900_000_000_000L : -1, -1, -1);
        }
        writer.database(5, 2, 0);
        // Incompressible and over the reader's 64 KiB window: the window grows for it.
        byte[] large = new byte[300_000];
        new java.util.Random(3).nextBytes(large);
        writer.entry(bytes("large"), large, -1, 42, -1);
        Quicklist list = new Quicklist(-2, 0);
        list.pushTail(bytes("a"));
        list.pushTail(bytes("12345"));
        writer.entry(bytes("list"), list, -1, -1, 9);
        writer.finish();
        return bytes.toByteArray();
    }

    private static List<Entry> read(byte[] file, boolean verify) {
        List<Entry> entries = new ArrayList<>();
        read(file, verify, entries, new ArrayList<>(), null);
        return entries;
    }

    /** Reads {@code file}, each library answered {@code libraryError}. */
    private static void read(byte[] file, boolean verify, List<Entry> entries, List<String> libraries,
                             String libraryError) {
        ReadableByteChannel channel = Channels.newChannel(new java.io.ByteArrayInputStream(file));
        RdbFileReader.read(channel, file.length, ENCODINGS, verify, new RdbFileReader.Loader() {
            @Override
            public int databases() {
                return 16;
            }

            @Override
            public void entry(int database, byte[] key, Object value, long expireAt, long idleSeconds, int frequency) {
                entries.add(new Entry(database, key, value, expireAt, idleSeconds, frequency));
            }

            @Override
            public String library(byte[] code) {
                libraries.add(new String(code, StandardCharsets.UTF_8));
                return libraryError;
            }
        });
    }

    @Test
    void whatIsWrittenReadsBackThroughTheWindow() throws IOException {
        byte[] file = file(true);
        assertEquals("REDIS0010", new String(file, 0, 9, StandardCharsets.US_ASCII));
        List<Entry> entries = read(file, true);
        assertEquals(3002, entries.size());
        assertArrayEquals(bytes("value:2999"), (byte[]) entries.get(2999).value());
        assertEquals(1_900_000_000_000L, entries.get(7).expireAt());
        assertEquals(-1, entries.get(8).expireAt());
        Entry large = entries.get(3000);
        assertEquals(5, large.database());
        assertEquals(300_000, ((byte[]) large.value()).length);
        assertEquals(42, large.idleSeconds());
        assertEquals(9, entries.get(3001).frequency());
        assertEquals(2, ((Quicklist) entries.get(3001).value()).size());
    }

    @Test
    void theTrailerIsTheChecksumOfEverythingBeforeIt() throws IOException {
        byte[] file = file(true);
        long trailer = 0;
        for (int i = 0; i < 8; i++) {
            trailer |= (long) (file[file.length - 8 + i] & 0xFF) << 8 * i;
        }
        assertEquals(Crc64.update(0, file, 0, file.length - 8), trailer);

        byte[] damaged = file.clone();
        damaged[new String(file, StandardCharsets.ISO_8859_1).indexOf("value:1234") + 2] ^= 1;
        RdbFormatException wrong = assertThrows(RdbFormatException.class, () -> read(damaged, true));
        assertTrue(wrong.getMessage().startsWith("Wrong RDB checksum expected: ("), wrong.getMessage());
        assertEquals(3002, read(damaged, false).size(), "rdbchecksum no reads it unchecked");
    }

    @Test
    void withoutChecksumTheTrailerIsZeroAndNotChecked() throws IOException {
        byte[] file = file(false);
        assertArrayEquals(new byte[8], Arrays.copyOfRange(file, file.length - 8, file.length));
        assertEquals(3002, read(file, true).size());
    }

    @Test
    void aTruncatedFileIsAShortRead() throws IOException {
        byte[] file = file(true);
        for (int length : new int[] {0, 5, 9, 100, file.length / 2, file.length - 9, file.length - 1}) {
            byte[] truncated = Arrays.copyOf(file, length);
            RdbFormatException shortRead = assertThrows(RdbFormatException.class, () -> read(truncated, true));
            assertEquals("Short read or OOM loading DB. Unrecoverable error, aborting now.", shortRead.getMessage(),
                "at " + length);
        }
    }

    @Test
    void aDatabasePastTheServersIsRefused() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RdbFileWriter writer = new RdbFileWriter(Channels.newChannel(bytes), true, true);
        writer.header();
        writer.database(16, 1, 0);
        writer.entry(bytes("k"), bytes("v"), -1, -1, -1);
        writer.finish();
        RdbFormatException refused = assertThrows(RdbFormatException.class, () -> read(bytes.toByteArray(), true));
        assertTrue(refused.getMessage().contains("configured to handle more than 16 databases"), refused.getMessage());
    }

    /** Compressible: written LZF-compressed, read back whole. */
    private static final String LIBRARY =
        "#!lua name=lib\n-- " + "padding ".repeat(40) + "\nredis.register_function('f', function() return 1 end)";
    private static final String OTHER_LIBRARY = "#!lua name=b\nredis.register_function('g', function() return 2 end)";

    @Test
    void librariesFollowTheAuxFieldsAndReadBackBeforeTheKeys() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RdbFileWriter writer = new RdbFileWriter(Channels.newChannel(bytes), true, true);
        writer.header();
        writer.aux("redis-ver", "7.0.15");
        writer.function(bytes(LIBRARY));
        writer.function(bytes(OTHER_LIBRARY));
        writer.database(0, 1, 0);
        writer.entry(bytes("k"), bytes("v"), -1, -1, -1);
        writer.finish();
        byte[] file = bytes.toByteArray();
        // REDIS0010, the AUX field (1 + 10 + 7 bytes), then the opcode.
        assertEquals(RdbFileWriter.OPCODE_FUNCTION2, file[9 + 18] & 0xFF);

        List<Entry> entries = new ArrayList<>();
        List<String> libraries = new ArrayList<>();
        read(file, true, entries, libraries, null);
        assertEquals(List.of(LIBRARY, OTHER_LIBRARY), libraries);
        assertTrue(file.length < LIBRARY.length(), "compressed");
        assertEquals(1, entries.size());

        RdbFormatException refused = assertThrows(RdbFormatException.class,
            () -> read(file, true, new ArrayList<>(), new ArrayList<>(), "Engine 'lua' not found"));
        assertEquals("Failed loading library, Engine 'lua' not found", refused.getMessage());
    }

    /** Redis 7.0's release candidates wrote name, engine, description and code apart; 7.0 loads it with a shebang. */
    @Test
    void aReleaseCandidatesLibraryLoadsWithItsShebang() {
        RdbOutput out = new RdbOutput(false);
        out.write(RdbFileWriter.MAGIC, 0, RdbFileWriter.MAGIC.length);
        out.write(bytes("0010"), 0, 4);
        for (boolean described : new boolean[] {true, false}) {
            out.writeByte(RdbFileWriter.OPCODE_FUNCTION);
            out.writeString(bytes(described ? "lib" : "other"));
            out.writeString(bytes("LUA"));
            out.writeLength(described ? 1 : 0);
            if (described) {
                out.writeString(bytes("a description"));
            }
            out.writeString(bytes("redis.register_function('f', function() return 1 end)"));
        }
        out.writeByte(RdbFileWriter.OPCODE_EOF);
        out.writeLittleEndian(0, 8);
        List<String> libraries = new ArrayList<>();
        read(out.toByteArray(), true, new ArrayList<>(), libraries, null);
        assertEquals(List.of("#!LUA name=lib\nredis.register_function('f', function() return 1 end)",
            "#!LUA name=other\nredis.register_function('f', function() return 1 end)"), libraries);
    }

    @Test
    void entriesEncodedAheadReachTheChannelInWritesOfAtMost64KiB() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int[] largestWrite = {0};
        WritableByteChannel channel = new WritableByteChannel() {
            @Override
            public int write(ByteBuffer source) {
                int length = source.remaining();
                largestWrite[0] = Math.max(largestWrite[0], length);
                byte[] copy = new byte[length];
                source.get(copy);
                bytes.write(copy, 0, length);
                return length;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        RdbFileWriter writer = new RdbFileWriter(channel, true, true);
        writer.header();
        RdbEntryBuffer entries = new RdbEntryBuffer(true);
        ValueView value = new ValueView();
        // The keys and values are read from slices of larger arrays, as a walk reads them from a page.
        byte[] page = bytes("..key:0123456789..");
        for (int i = 0; i < 3000; i++) {
            value.setString(page, 2, 10);
            entries.entry(3, bytes("key:" + i), 0, ("key:" + i).length(), value, -1, -1, -1);
        }
        byte[] large = new byte[300_000];
        new java.util.Random(5).nextBytes(large);
        value.setString(large, 0, large.length);
        entries.entry(3, page, 2, 6, value, -1, -1, -1);
        writer.entries(entries);
        writer.finish();
        assertEquals(0, entries.size());
        assertTrue(largestWrite[0] <= 64 * 1024, "largest write " + largestWrite[0]);

        List<Entry> read = read(bytes.toByteArray(), true);
        assertEquals(3001, read.size());
        assertEquals(3, read.get(0).database());
        assertEquals("key:0", new String(read.get(0).key(), StandardCharsets.UTF_8));
        assertArrayEquals(bytes("key:012345"), (byte[]) read.get(2999).value());
        assertArrayEquals(bytes("key:01"), read.get(3000).key());
        assertArrayEquals(large, (byte[]) read.get(3000).value());
    }
}
