package dev.lacewing.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.lacewing.api.StringEncoding;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the gathered view finds the keys other shards handed over, listed or hashed. */
class GatheredKeyspaceTest {

    private static GatheredKeyspace.Entry entry(String key, int part, String value) {
        return new GatheredKeyspace.Entry(key.getBytes(StandardCharsets.UTF_8), part, true,
            value.getBytes(StandardCharsets.UTF_8), -1, StringEncoding.FROM_BYTES);
    }

    private static GatheredKeyspace.Entry find(GatheredKeyspace view, String key) {
        byte[] padded = ("<<" + key + ">>").getBytes(StandardCharsets.UTF_8);
        return view.entry(padded, 2, padded.length - 4);
    }

    @Test
    void aFewGatheredKeysAreFoundByTheirBytesAndTheFirstPartsEntryWins() {
        GatheredKeyspace view = new GatheredKeyspace();
        GatheredKeyspace.Entry a = entry("a", 0, "1");
        GatheredKeyspace.Entry b = entry("bb", 0, "2");
        GatheredKeyspace.Entry c = entry("c", 3, "3");
        assertFalse(view.join(new Object[] {new ArrayList<>(List.of(a, b)), null,
            new ArrayList<>(List.of(c, entry("a", 3, "other")))}));
        assertSame(a, find(view, "a"));
        assertSame(b, find(view, "bb"));
        assertSame(c, find(view, "c"));
        assertNull(find(view, "b"));
        assertNull(find(view, "d"));
    }

    @Test
    void manyGatheredKeysAreAllFoundOnceTheyAreHashed() {
        GatheredKeyspace view = new GatheredKeyspace();
        List<GatheredKeyspace.Entry> first = new ArrayList<>();
        List<GatheredKeyspace.Entry> second = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            (i % 2 == 0 ? first : second).add(entry("key:" + i, i % 2, "v" + i));
        }
        second.add(entry("key:0", 1, "other"));
        assertFalse(view.join(new Object[] {first, second}));
        for (int i = 0; i < 40; i++) {
            GatheredKeyspace.Entry found = find(view, "key:" + i);
            assertEquals("v" + i, new String((byte[]) found.value, StandardCharsets.UTF_8));
        }
        assertNull(find(view, "key:40"));
    }
}
