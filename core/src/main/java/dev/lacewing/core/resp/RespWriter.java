package dev.lacewing.core.resp;

import dev.lacewing.api.ReplyWriter;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.diagnostics.ErrorStats;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Encodes replies straight into the connection's outbound {@link ByteBuf}, in RESP2 or RESP3.
 * Numbers are written digit by digit: no String per reply.
 *
 * <p>Thread rule: used by whichever thread runs the connection's current command; the engine's
 * hand-over orders those uses.
 */
public final class RespWriter implements ReplyWriter {

    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] NULL_BULK = "$-1\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL_ARRAY = "*-1\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RESP3_NULL = "_\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OK = "+OK\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DIGITS_MIN_LONG = "-9223372036854775808".getBytes(StandardCharsets.US_ASCII);

    /** Type byte, sign, 19 digits and CRLF: the longest header. */
    private static final int HEADER_MAX = 1 + 20 + 2;

    private final byte[] scratch = new byte[HEADER_MAX];
    private ByteBuf out;
    private int protocol = 2;
    private long errors;
    /** Where the errors written are counted by prefix (INFO errorstats); null for none. */
    private ErrorStats errorStats;

    /** Directs the writer at the buffer the next replies go to. */
    public void target(ByteBuf buffer) {
        this.out = buffer;
    }

    public void protocol(int protocol) {
        this.protocol = protocol;
    }

    /** Error replies written so far; the server reads it to count failed calls. */
    public long errorCount() {
        return errors;
    }

    @Override
    public int protocol() {
        return protocol;
    }

    @Override
    public void simple(String text) {
        out.writeByte('+');
        out.writeCharSequence(text, StandardCharsets.UTF_8);
        out.writeBytes(CRLF);
    }

    @Override
    public void ok() {
        out.writeBytes(OK);
    }

    @Override
    public void error(String message) {
        errors++;
        out.writeByte('-');
        int start = out.writerIndex();
        out.writeCharSequence(message, StandardCharsets.UTF_8);
        endError(start);
    }

    @Override
    public void error(byte[] message) {
        errors++;
        out.writeByte('-');
        int start = out.writerIndex();
        out.writeBytes(message);
        endError(start);
    }

    /** Counts every error written from now on in {@code stats}. */
    public void errorStats(ErrorStats stats) {
        this.errorStats = stats;
    }

    /** An error is one line: Redis replaces newlines in error text with spaces. */
    private void endError(int start) {
        if (errorStats != null) {
            errorStats.record(out, start);
        }
        for (int i = start; i < out.writerIndex(); i++) {
            byte b = out.getByte(i);
            if (b == '\r' || b == '\n') {
                out.setByte(i, ' ');
            }
        }
        out.writeBytes(CRLF);
    }

    /** Copies replies already encoded for this connection's protocol (a split command's parts). */
    public void raw(ByteBuf encoded, int index, int length) {
        out.writeBytes(encoded, index, length);
    }

    @Override
    public void integer(long value) {
        header(':', value);
    }

    @Override
    public void bulk(byte[] value) {
        bulk(value, 0, value.length);
    }

    @Override
    public void bulk(byte[] array, int offset, int length) {
        out.ensureWritable(length + HEADER_MAX + 2);
        header('$', length);
        out.writeBytes(array, offset, length);
        out.writeBytes(CRLF);
    }

    @Override
    public void bulk(ValueView string, int from, int length) {
        if (!string.isChunked()) {
            bulk(string.array(), string.offset() + from, length);
            return;
        }
        out.ensureWritable(length + HEADER_MAX + 2);
        header('$', length);
        byte[][] chunks = string.chunks();
        int chunkSize = string.chunkSize();
        while (length > 0) {
            int inChunk = from % chunkSize;
            int n = Math.min(length, chunkSize - inChunk);
            out.writeBytes(chunks[from / chunkSize], inChunk, n);
            from += n;
            length -= n;
        }
        out.writeBytes(CRLF);
    }

    @Override
    public void bulk(String text) {
        bulk(text.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void nullBulk() {
        out.writeBytes(protocol == 3 ? RESP3_NULL : NULL_BULK);
    }

    @Override
    public void nullArray() {
        out.writeBytes(protocol == 3 ? RESP3_NULL : NULL_ARRAY);
    }

    @Override
    public void array(int length) {
        header('*', length);
    }

    @Override
    public void map(int pairs) {
        if (protocol == 3) {
            header('%', pairs);
        } else {
            header('*', pairs * 2L);
        }
    }

    @Override
    public void push(int length) {
        header(protocol == 3 ? '>' : '*', length);
    }

    @Override
    public void set(int length) {
        header(protocol == 3 ? '~' : '*', length);
    }

    @Override
    public void doubleValue(double value) {
        doubleText(DoubleFormat.reply(value));
    }

    @Override
    public void doubleText(String text) {
        if (protocol == 3) {
            out.writeByte(',');
            out.writeCharSequence(text, StandardCharsets.US_ASCII);
            out.writeBytes(CRLF);
        } else {
            bulk(text);
        }
    }

    @Override
    public void bool(boolean value) {
        if (protocol == 3) {
            out.writeByte('#');
            out.writeByte(value ? 't' : 'f');
            out.writeBytes(CRLF);
        } else {
            integer(value ? 1 : 0);
        }
    }

    @Override
    public void verbatim(String text) {
        if (protocol == 3) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            header('=', bytes.length + 4);
            out.writeCharSequence("txt:", StandardCharsets.US_ASCII);
            out.writeBytes(bytes);
            out.writeBytes(CRLF);
        } else {
            bulk(text);
        }
    }

    /** Where the next reply starts, for {@link #truncate}. */
    public int position() {
        return out.writerIndex();
    }

    /** Drops every reply written since {@link #position()} gave {@code position} (an abandoned script run). */
    public void truncate(int position) {
        out.writerIndex(position);
    }

    @Override
    public void bigNumber(String digits) {
        if (protocol == 3) {
            out.writeByte('(');
            out.writeCharSequence(digits, StandardCharsets.US_ASCII);
            out.writeBytes(CRLF);
        } else {
            bulk(digits);
        }
    }

    @Override
    public void verbatim(String format, byte[] text) {
        if (protocol == 3) {
            header('=', text.length + 4);
            out.writeCharSequence(format, StandardCharsets.US_ASCII);
            out.writeByte(':');
            out.writeBytes(text);
            out.writeBytes(CRLF);
        } else {
            bulk(text);
        }
    }

    /**
     * A type byte, a decimal and CRLF, made in {@link #scratch} and written with one call: the
     * buffer's bounds and capacity are checked once, not per digit (a GET reply's {@code $256\r\n}
     * took 5% of the worker's samples at pipeline 30 when written byte by byte).
     */
    private void header(char type, long value) {
        byte[] line = scratch;
        int end = HEADER_MAX;
        line[--end] = '\n';
        line[--end] = '\r';
        if (value == Long.MIN_VALUE) {
            end -= DIGITS_MIN_LONG.length;
            System.arraycopy(DIGITS_MIN_LONG, 0, line, end, DIGITS_MIN_LONG.length);
        } else {
            long rest = Math.abs(value);
            do {
                line[--end] = (byte) ('0' + rest % 10);
                rest /= 10;
            } while (rest > 0);
            if (value < 0) {
                line[--end] = '-';
            }
        }
        line[--end] = (byte) type;
        out.writeBytes(line, end, HEADER_MAX - end);
    }
}
