package dev.lacewing.api;

import java.nio.charset.StandardCharsets;

/**
 * The arguments of one request, argument 0 being the command name. Each argument is a slice of
 * the connection's inbound buffer: {@link #array()} at {@link #offset(int)} for
 * {@link #length(int)} bytes. Nothing is copied until a caller asks for {@link #copy(int)}.
 *
 * <p>Thread rule: valid only during the command's execution, on the thread the engine runs it on.
 */
public interface Arguments {

    /** Number of arguments, the command name included. */
    int count();

    /** The buffer every argument lives in. */
    byte[] array();

    int offset(int index);

    int length(int index);

    /** A fresh copy of the argument, for storing. */
    default byte[] copy(int index) {
        byte[] copy = new byte[length(index)];
        System.arraycopy(array(), offset(index), copy, 0, copy.length);
        return copy;
    }

    /** The argument decoded as UTF-8; for options and admin commands, never for keys or values. */
    default String string(int index) {
        return new String(array(), offset(index), length(index), StandardCharsets.UTF_8);
    }

    /** Whether the argument equals an ASCII word, ignoring case; used for option names. */
    default boolean is(int index, String asciiWord) {
        int length = length(index);
        if (length != asciiWord.length()) {
            return false;
        }
        byte[] array = array();
        int offset = offset(index);
        for (int i = 0; i < length; i++) {
            int a = array[offset + i];
            int b = asciiWord.charAt(i);
            if (a != b) {
                int lower = a | 0x20;
                if (lower != (b | 0x20) || lower < 'a' || lower > 'z') {
                    return false;
                }
            }
        }
        return true;
    }
}
