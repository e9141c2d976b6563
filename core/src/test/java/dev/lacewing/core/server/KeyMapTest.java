package dev.lacewing.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The key map of gathered keys and EXEC's written keys: each key once, found by its bytes, listed then hashed. */
class KeyMapTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Keys are slices compared by content, with a map of either size: a few listed, many hashed. */
    @Test
    void aKeyIsFoundByItsBytesWhetherListedOrHashed() {
        for (int count : new int[] {1, KeyMap.LISTED_UP_TO, KeyMap.LISTED_UP_TO + 1, 3 * KeyMap.LISTED_UP_TO}) {
            KeyMap<Integer> map = new KeyMap<>(2);
            byte[] all = bytes("--" + "k".repeat(count * 3));
            for (int i = 0; i < count; i++) {
                byte[] key = bytes("key" + i);
                assertNull(map.putIfAbsent(key, 0, key.length, i));
            }
            assertEquals(count, map.size());
            for (int i = 0; i < count; i++) {
                byte[] framed = bytes("[key" + i + "]");
                assertEquals(i, map.get(framed, 1, framed.length - 2), "key" + i + " of " + count);
                assertEquals(i, map.value(i), "in the order added");
            }
            byte[] missing = bytes("key" + count);
            assertNull(map.get(missing, 0, missing.length));
            assertNull(map.get(bytes("key1"), 0, 3), "a prefix is another key");
            assertNull(map.get(all, 0, 2));
        }
    }

    /** Adding a key already there keeps the first value and the size, listed or hashed. */
    @Test
    void aKeyAddedAgainKeepsItsFirstValue() {
        for (int count : new int[] {2, 2 * KeyMap.LISTED_UP_TO}) {
            KeyMap<String> map = new KeyMap<>(1);
            for (int i = 0; i < count; i++) {
                byte[] key = bytes("k" + i);
                map.putIfAbsent(key, 0, key.length, "first " + i);
            }
            byte[] again = bytes("xk1x");
            assertEquals("first 1", map.putIfAbsent(again, 1, 2, "second"));
            assertEquals(count, map.size());
            assertEquals("first 1", map.get(again, 1, 2));
        }
    }
}
