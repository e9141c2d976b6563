package dev.lacewing.core.resp;

import dev.lacewing.api.Arguments;
import io.netty.buffer.ByteBuf;

/**
 * Decodes RESP requests (multibulk and inline, telnet style) from a connection's inbound bytes.
 * The bytes are copied once per read into one growing {@code byte[]}, and every argument is a
 * slice of it: no String and no byte[] per argument. Parsing is resumable: a request that
 * arrives in pieces is not parsed again from its start, and a bulk length is checked against
 * {@code proto-max-bulk-len} from its header, before any of its bytes are buffered.
 *
 * <p>What Redis calls the query buffer is what is not yet parsed into complete arguments
 * ({@link #queryBufferBytes()}): Redis moves each complete argument out of its query buffer, so
 * {@code client-query-buffer-limit} bounds an argument, not a whole command. Before AUTH a
 * request is held to {@value #UNAUTHENTICATED_MAX_MULTIBULK_LENGTH} arguments and bulks of
 * {@value #UNAUTHENTICATED_MAX_BULK_LENGTH} bytes, refused from its header as Redis 7.0 does.
 *
 * <p>Thread rule: owned by the connection's event loop; while a command runs on another thread
 * the connection reads nothing, so that thread may read the argument slices.
 */
public final class RequestDecoder implements Arguments {

    /** Outcome of {@link #decode()}. */
    public enum Result { COMPLETE, INCOMPLETE, ERROR }

    public static final int MAX_MULTIBULK_LENGTH = 1024 * 1024;
    /** Longest inline request or multibulk/bulk header line Redis accepts (PROTO_INLINE_MAX_SIZE). */
    public static final int MAX_INLINE_LENGTH = 64 * 1024;
    /** Most arguments a multibulk request may announce before its connection has authenticated. */
    public static final int UNAUTHENTICATED_MAX_MULTIBULK_LENGTH = 10;
    /** Longest bulk a request may announce before its connection has authenticated. */
    public static final int UNAUTHENTICATED_MAX_BULK_LENGTH = 16 * 1024;
    private static final int INITIAL_CAPACITY = 16 * 1024;
    /** Redis's PROTO_MBULK_BIG_ARG: a bulk this long gets a buffer that ends where it ends. */
    private static final int BIG_ARGUMENT = 32 * 1024;

    private byte[] data = new byte[INITIAL_CAPACITY];
    private int writeIndex;
    /** Start of the request being decoded. */
    private int requestStart;
    /** Where decoding resumes. */
    private int position;

    private int[] offsets = new int[8];
    private int[] lengths = new int[8];
    private int argumentCount;
    /** Arguments the current multibulk announced; -1 before its header is read. */
    private int expectedArguments = -1;
    /** Length of the bulk whose header was read and whose bytes have not all arrived; -1 if none. */
    private long pendingBulkLength = -1;
    private String error;
    /** What Redis logs for {@link #error}: a fixed text, without the client's bytes. */
    private String errorSummary;

    private long maxBulkLength = 512L * 1024 * 1024;
    private long queryBufferLimit = 1024L * 1024 * 1024;
    private boolean authenticationRequired;

    public void maxBulkLength(long bytes) {
        this.maxBulkLength = bytes;
    }

    /**
     * {@code client-query-buffer-limit}: a bulk longer than this (its CRLF counted, as Redis
     * counts it) never completes, so that its connection is closed once its bytes pass the limit.
     */
    public void queryBufferLimit(long bytes) {
        this.queryBufferLimit = bytes;
    }

    /** Whether the next requests come before AUTH, and so are held to the unauthenticated limits. */
    public void authenticationRequired(boolean required) {
        this.authenticationRequired = required;
    }

    /** Appends the readable bytes of {@code in}; does not release it. */
    public void append(ByteBuf in) {
        int readable = in.readableBytes();
        ensureWritable(readable);
        in.readBytes(data, writeIndex, readable);
        writeIndex += readable;
    }

    /** Bytes buffered for requests not yet executed, the current one included. */
    public int bufferedBytes() {
        return writeIndex - requestStart;
    }

    public boolean hasBufferedBytes() {
        return writeIndex > requestStart;
    }

    /**
     * Redis's query buffer: the bytes not yet parsed into complete arguments, from the start of
     * the element being decoded (a header line, an inline line or a bulk's data) to the last byte
     * received. The complete arguments of the current request are not counted.
     */
    public int queryBufferBytes() {
        return writeIndex - position;
    }

    /** Where in {@link #array()} the {@link #queryBufferBytes()} start. */
    public int queryBufferOffset() {
        return position;
    }

    /** The protocol error of the last {@link Result#ERROR}, as the client gets it. */
    public String error() {
        return error;
    }

    /** The protocol error of the last {@link Result#ERROR} as Redis logs it: no client bytes in it. */
    public String errorSummary() {
        return errorSummary;
    }

    /**
     * Decodes the next request. On COMPLETE the arguments are available until
     * {@link #consume()}, and decoding again before it gives the same request; an empty request
     * (a blank line, {@code *0}) is skipped silently.
     */
    public Result decode() {
        if (error != null) {
            // Sticky, so decoding again gives the same answer: the connection closes after an error.
            return Result.ERROR;
        }
        while (true) {
            if (expectedArguments < 0) {
                if (position >= writeIndex) {
                    return Result.INCOMPLETE;
                }
                if (data[position] != '*') {
                    Result inline = decodeInline();
                    if (inline == Result.COMPLETE && argumentCount == 0) {
                        consume();
                        continue;
                    }
                    return inline;
                }
                int lineEnd = findCrlf(position + 1);
                if (lineEnd < 0) {
                    return writeIndex - position > MAX_INLINE_LENGTH
                        ? fail("Protocol error: too big mbulk count string", "too big mbulk count string")
                        : Result.INCOMPLETE;
                }
                long count = parseLength(position + 1, lineEnd);
                if (count == Long.MIN_VALUE || count > MAX_MULTIBULK_LENGTH) {
                    return fail("Protocol error: invalid multibulk length", "invalid mbulk count");
                }
                if (count > UNAUTHENTICATED_MAX_MULTIBULK_LENGTH && authenticationRequired) {
                    return fail("Protocol error: unauthenticated multibulk length", "unauth mbulk count");
                }
                position = lineEnd + 2;
                if (count <= 0) {
                    consume();
                    continue;
                }
                expectedArguments = (int) count;
                argumentCount = 0;
            }
            return decodeBulks();
        }
    }

    private Result decodeBulks() {
        while (argumentCount < expectedArguments) {
            if (pendingBulkLength < 0) {
                if (position >= writeIndex) {
                    return Result.INCOMPLETE;
                }
                if (data[position] != '$') {
                    return fail("Protocol error: expected '$', got '" + (char) (data[position] & 0xff) + "'",
                        "expected $ but got something else");
                }
                int lineEnd = findCrlf(position + 1);
                if (lineEnd < 0) {
                    return writeIndex - position > MAX_INLINE_LENGTH
                        ? fail("Protocol error: too big bulk count string", "too big bulk count string")
                        : Result.INCOMPLETE;
                }
                long length = parseLength(position + 1, lineEnd);
                if (length < 0 || length > maxBulkLength || length > Integer.MAX_VALUE - 2) {
                    return fail("Protocol error: invalid bulk length", "invalid bulk length");
                }
                if (length > UNAUTHENTICATED_MAX_BULK_LENGTH && authenticationRequired) {
                    return fail("Protocol error: unauthenticated bulk length", "unauth bulk length");
                }
                pendingBulkLength = length;
                position = lineEnd + 2;
            }
            // A bulk over client-query-buffer-limit stays incomplete: its connection is closed as
            // the bytes pass the limit, where Redis closes it, and never executed.
            if (writeIndex - position < pendingBulkLength + 2 || pendingBulkLength + 2 > queryBufferLimit) {
                return Result.INCOMPLETE;
            }
            addArgument(position, (int) pendingBulkLength);
            position += (int) pendingBulkLength + 2;
            pendingBulkLength = -1;
        }
        return Result.COMPLETE;
    }

    /** A telnet-style line: words separated by blanks, "double" and 'single' quotes as redis-cli does. */
    private Result decodeInline() {
        int newline = -1;
        for (int i = position; i < writeIndex; i++) {
            if (data[i] == '\n') {
                newline = i;
                break;
            }
        }
        if (newline < 0) {
            return writeIndex - position > MAX_INLINE_LENGTH
                ? fail("Protocol error: too big inline request", "too big inline request") : Result.INCOMPLETE;
        }
        int end = newline > position && data[newline - 1] == '\r' ? newline - 1 : newline;
        argumentCount = 0;
        if (!splitInline(position, end)) {
            return fail("Protocol error: unbalanced quotes in request", "unbalanced quotes in inline request");
        }
        position = newline + 1;
        expectedArguments = argumentCount;
        return Result.COMPLETE;
    }

    /** Splits in place: an unquoted word stays where it is, a quoted one is unescaped over itself. */
    private boolean splitInline(int from, int end) {
        int i = from;
        while (true) {
            while (i < end && isBlank(data[i])) {
                i++;
            }
            if (i >= end) {
                return true;
            }
            int start = i;
            int out = i;
            boolean inDouble = false;
            boolean inSingle = false;
            while (true) {
                if (inDouble) {
                    if (i >= end) {
                        return false;
                    }
                    byte c = data[i];
                    if (c == '\\' && i + 3 < end && data[i + 1] == 'x' && isHex(data[i + 2]) && isHex(data[i + 3])) {
                        data[out++] = (byte) (hex(data[i + 2]) * 16 + hex(data[i + 3]));
                        i += 4;
                    } else if (c == '\\' && i + 1 < end) {
                        byte e = data[i + 1];
                        data[out++] = switch (e) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 't' -> '\t';
                            case 'b' -> '\b';
                            case 'a' -> 7;
                            default -> e;
                        };
                        i += 2;
                    } else if (c == '"') {
                        if (i + 1 < end && !isBlank(data[i + 1])) {
                            return false;
                        }
                        i++;
                        break;
                    } else {
                        data[out++] = c;
                        i++;
                    }
                } else if (inSingle) {
                    if (i >= end) {
                        return false;
                    }
                    byte c = data[i];
                    if (c == '\\' && i + 1 < end && data[i + 1] == '\'') {
                        data[out++] = '\'';
                        i += 2;
                    } else if (c == '\'') {
                        if (i + 1 < end && !isBlank(data[i + 1])) {
                            return false;
                        }
                        i++;
                        break;
                    } else {
                        data[out++] = c;
                        i++;
                    }
                } else {
                    if (i >= end || isBlank(data[i])) {
                        break;
                    }
                    byte c = data[i];
                    if (c == '"') {
                        inDouble = true;
                    } else if (c == '\'') {
                        inSingle = true;
                    } else {
                        data[out++] = c;
                    }
                    i++;
                }
            }
            addArgument(start, out - start);
        }
    }

    /** Releases the decoded request: its bytes may be reused. */
    public void consume() {
        requestStart = position;
        expectedArguments = -1;
        argumentCount = 0;
        pendingBulkLength = -1;
        if (requestStart == writeIndex) {
            requestStart = 0;
            position = 0;
            writeIndex = 0;
        }
    }

    /** Drops everything buffered: the bytes went elsewhere (a script debugging session's input). */
    public void consumeAll() {
        requestStart = 0;
        position = 0;
        writeIndex = 0;
        expectedArguments = -1;
        argumentCount = 0;
        pendingBulkLength = -1;
    }

    /** Gives back memory after a large request, once nothing is buffered. */
    public void trim() {
        if (writeIndex == 0 && data.length > INITIAL_CAPACITY * 4) {
            data = new byte[INITIAL_CAPACITY];
        }
    }

    private Result fail(String message, String summary) {
        error = message;
        errorSummary = summary;
        return Result.ERROR;
    }

    private void addArgument(int offset, int length) {
        if (argumentCount == offsets.length) {
            int capacity = Math.min(Math.max(offsets.length * 2, 8), MAX_MULTIBULK_LENGTH);
            offsets = java.util.Arrays.copyOf(offsets, capacity);
            lengths = java.util.Arrays.copyOf(lengths, capacity);
        }
        offsets[argumentCount] = offset;
        lengths[argumentCount] = length;
        argumentCount++;
    }

    /**
     * Makes room for {@code more} bytes: first by moving the unconsumed request to the front,
     * then by growing. Growth follows the bytes that really arrive, never a header's claim.
     */
    private void ensureWritable(int more) {
        if (data.length - writeIndex >= more) {
            return;
        }
        int shift = requestStart;
        int live = writeIndex - shift;
        byte[] target = data;
        if (data.length - live < more) {
            long wanted = Math.max((long) data.length * 2, (long) live + more);
            if (pendingBulkLength >= BIG_ARGUMENT) {
                // Doubling stops at the end of a big bulk whose bytes are arriving: a 64 MB body took a
                // 128 MB buffer (192 MB while it was copied) where Redis reads it into an exact one.
                // Below that end growth still follows the bytes that really come, never the header.
                long bulkEnd = (long) position - shift + pendingBulkLength + 2;
                wanted = Math.max(Math.min(wanted, bulkEnd), (long) live + more);
            }
            target = new byte[(int) Math.min(wanted, Integer.MAX_VALUE - 16)];
        }
        System.arraycopy(data, shift, target, 0, live);
        data = target;
        writeIndex = live;
        requestStart = 0;
        position -= shift;
        for (int i = 0; i < argumentCount; i++) {
            offsets[i] -= shift;
        }
    }

    private int findCrlf(int from) {
        for (int i = from; i < writeIndex - 1; i++) {
            if (data[i] == '\r' && data[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** A non-negative decimal, -1 for "-1", Long.MIN_VALUE when malformed. */
    private long parseLength(int from, int to) {
        if (from == to) {
            return Long.MIN_VALUE;
        }
        boolean negative = data[from] == '-';
        int i = negative ? from + 1 : from;
        if (i == to || to - i > 18) {
            return Long.MIN_VALUE;
        }
        long value = 0;
        for (; i < to; i++) {
            int digit = data[i] - '0';
            if (digit < 0 || digit > 9) {
                return Long.MIN_VALUE;
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }

    private static boolean isBlank(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b;
    }

    private static boolean isHex(byte c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static int hex(byte c) {
        return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    }

    @Override
    public int count() {
        return argumentCount;
    }

    /** Bytes the buffer holds room for: what this connection's input costs, for CLIENT LIST's tot-mem. */
    public int capacity() {
        return data.length;
    }

    @Override
    public byte[] array() {
        return data;
    }

    @Override
    public int offset(int index) {
        return offsets[index];
    }

    @Override
    public int length(int index) {
        return lengths[index];
    }
}
