package dev.lacewing.storage.tiered;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentFileTest {

    @TempDir
    Path directory;

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    public void readsBackWhatItAppendedAtTheOffsetsItGave() {
        try (SegmentFile segment = new SegmentFile(directory.resolve("s"))) {
            byte[] request = bytes("xxhelloyy");
            long hello = segment.append(request, 2, 5);
            long world = segment.append(bytes("world!"), 0, 6);
            assertEquals(0, hello);
            assertEquals(5, world);
            assertArrayEquals(bytes("hello"), segment.read(hello, 5));
            assertArrayEquals(bytes("world!"), segment.read(world, 6));
            assertEquals(11, segment.size());
            assertEquals(2, segment.liveValues());
            assertEquals(2, segment.reads());
        }
    }

    @Test
    public void startsEmptyOverAStaleFileAndDeletesItsFileWhenClosed() throws Exception {
        Path path = directory.resolve("s");
        Files.write(path, bytes("stale"));
        SegmentFile segment = new SegmentFile(path);
        assertEquals(0, Files.size(path));
        segment.append(bytes("v"), 0, 1);
        segment.close();
        assertFalse(Files.exists(path));
    }

    @Test
    public void wantsCompactionOnceUnderHalfIsLiveAndKeepsLiveExtentsThroughIt() {
        try (SegmentFile segment = new SegmentFile(directory.resolve("s"))) {
            long[] offsets = new long[10];
            for (int i = 0; i < 10; i++) {
                offsets[i] = segment.append(bytes("value-" + i), 0, 7);
            }
            for (int i = 0; i < 5; i++) {
                segment.release(7);
            }
            assertFalse(segment.wantsCompaction(1), "half live is not under half");
            segment.release(7);
            assertFalse(segment.wantsCompaction(1000), "too small a file");
            assertTrue(segment.wantsCompaction(1));
            SegmentFile.Compaction compaction = segment.compaction();
            long[] moved = new long[10];
            for (int i = 6; i < 10; i++) {
                moved[i] = compaction.move(offsets[i], 7);
            }
            compaction.finish();
            assertEquals(28, segment.size());
            assertEquals(28, segment.liveBytes());
            for (int i = 6; i < 10; i++) {
                assertArrayEquals(bytes("value-" + i), segment.read(moved[i], 7));
            }
            assertFalse(Files.exists(directory.resolve("s.compacting")));
        }
    }

    @Test
    public void releasingTheLastLiveValueEmptiesTheFile() {
        try (SegmentFile segment = new SegmentFile(directory.resolve("s"))) {
            segment.append(bytes("abc"), 0, 3);
            segment.append(bytes("def"), 0, 3);
            segment.release(3);
            assertEquals(6, segment.size());
            segment.release(3);
            assertEquals(0, segment.size());
            assertEquals(0, segment.append(bytes("g"), 0, 1));
        }
    }
}
