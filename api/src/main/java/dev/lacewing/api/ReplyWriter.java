package dev.lacewing.api;

/**
 * Writes RESP replies straight into the connection's outbound buffer. Aggregate headers are
 * written first, then exactly as many elements. Methods that have no RESP2 form ({@link #map},
 * {@link #doubleValue}, {@link #bool}, {@link #nullValue}) fall back to the RESP2 encoding Redis
 * uses when the connection speaks RESP2.
 *
 * <p>Thread rule: only the thread executing the command writes; the engine hands it over.
 */
public interface ReplyWriter {

    /** 2 or 3, as set by HELLO. */
    int protocol();

    void simple(String text);

    default void ok() {
        simple("OK");
    }

    /** An error reply; {@code message} starts with its code, for example {@code "ERR syntax error"}. */
    void error(String message);

    /** An error reply of raw bytes, for messages that quote a client's binary arguments as Redis does. */
    void error(byte[] message);

    void integer(long value);

    void bulk(byte[] value);

    void bulk(byte[] array, int offset, int length);

    /**
     * A bulk string of {@code length} bytes of a string view from byte {@code from}; a chunked
     * string is written chunk by chunk, never joined first.
     */
    default void bulk(ValueView string, int from, int length) {
        if (string.isChunked()) {
            byte[] copy = new byte[length];
            string.copyTo(from, copy, 0, length);
            bulk(copy, 0, length);
        } else {
            bulk(string.array(), string.offset() + from, length);
        }
    }

    /** A bulk string of ASCII or UTF-8 text. */
    void bulk(String text);

    /** Null bulk string in RESP2, null in RESP3. */
    void nullBulk();

    /** Null array in RESP2, null in RESP3. */
    void nullArray();

    void array(int length);

    /** A map of {@code pairs} key/value pairs: a flat array of 2 * pairs in RESP2. */
    void map(int pairs);

    /** A push ({@code >}, out-of-band data such as pub/sub messages): an array in RESP2. */
    void push(int length);

    /** A set: an array in RESP2. */
    void set(int length);

    /** A double: a bulk string in RESP2, formatted as Redis formats it. */
    void doubleValue(double value);

    /**
     * A double already formatted (GEOPOS's coordinates, which Redis prints with 17 decimals): a
     * bulk string in RESP2, a RESP3 double of that text.
     */
    void doubleText(String text);

    /** A boolean: the integer 1 or 0 in RESP2. */
    void bool(boolean value);

    /** A verbatim string ({@code txt}): a bulk string in RESP2. */
    void verbatim(String text);

    /** A big number (RESP3 {@code (}), given as its decimal digits: a bulk string in RESP2. */
    default void bigNumber(String digits) {
        bulk(digits);
    }

    /** A verbatim string of a three-letter format ({@code txt}, {@code mkd}): a bulk string of the text in RESP2. */
    default void verbatim(String format, byte[] text) {
        bulk(text);
    }
}
