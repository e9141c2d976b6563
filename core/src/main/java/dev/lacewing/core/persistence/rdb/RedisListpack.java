package dev.lacewing.core.persistence.rdb;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Redis's own byte layouts of its small encodings, as RDB carries them: the listpack (listpack.c,
 * little-endian, with its 6-byte header and 0xFF end), read and written, and the ziplist
 * (ziplist.c) of RDB versions before 10, read only. Core's {@link dev.lacewing.core.datatype.Listpack}
 * keeps the same entries in its own layout; this class converts at the edge. Also the number
 * forms those encodings hold: string2ll's canonical integers and d2string's score text.
 *
 * <p>Stateless and thread-safe, except {@link Writer}, which one thread fills.
 */
public final class RedisListpack {

    private static final int HEADER_BYTES = 6;
    private static final int END = 0xFF;
    /** lpLength's "count unknown" marker in the header. */
    private static final int UNKNOWN_COUNT = 0xFFFF;
    /** d2string prints integral doubles strictly between these as integers (ll2string). */
    private static final double INTEGER_PRINT_LIMIT = 4503599627370496.0;
    /** double2ll's range, LLONG_MAX / 2 as a double. */
    private static final double DOUBLE2LL_LIMIT = Long.MAX_VALUE / 2;
    private static final MathContext SEVENTEEN_DIGITS = new MathContext(17, RoundingMode.HALF_EVEN);

    private RedisListpack() {
    }

    /** Builds one listpack, entry by entry, choosing each entry's encoding as lpInsert does. */
    public static final class Writer {
        private final RdbOutput body = new RdbOutput(false);
        private int count;

        public void add(byte[] value) {
            add(value, 0, value.length);
        }

        public void add(byte[] value, int offset, int length) {
            if (isCanonicalInteger(value, offset, length)) {
                add(parseCanonical(value, offset, length));
                return;
            }
            int header;
            if (length < 64) {
                body.writeByte(0x80 | length);
                header = 1;
            } else if (length < 4096) {
                body.writeByte(0xE0 | length >>> 8);
                body.writeByte(length);
                header = 2;
            } else {
                body.writeByte(0xF0);
                body.writeLittleEndian(length, 4);
                header = 5;
            }
            body.write(value, offset, length);
            writeBacklen(header + length);
        }

        public void add(long value) {
            int size;
            if (value >= 0 && value <= 127) {
                body.writeByte((int) value);
                size = 1;
            } else if (value >= -4096 && value <= 4095) {
                int unsigned = (int) value & 0x1FFF;
                body.writeByte(0xC0 | unsigned >>> 8);
                body.writeByte(unsigned);
                size = 2;
            } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
                body.writeByte(0xF1);
                body.writeLittleEndian(value, 2);
                size = 3;
            } else if (value >= -(1 << 23) && value < 1 << 23) {
                body.writeByte(0xF2);
                body.writeLittleEndian(value, 3);
                size = 4;
            } else if (value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE) {
                body.writeByte(0xF3);
                body.writeLittleEndian(value, 4);
                size = 5;
            } else {
                body.writeByte(0xF4);
                body.writeLittleEndian(value, 8);
                size = 9;
            }
            writeBacklen(size);
        }

        /**
         * A sorted set's score as 7.0.15's zzlInsertAt stores it: an integer when double2ll says
         * the score is one within +-LLONG_MAX/2 (-0 included, as 0), else d2string's text.
         */
        public void addScore(double score) {
            if (score >= -DOUBLE2LL_LIMIT && score <= DOUBLE2LL_LIMIT && (long) score == score) {
                add((long) score);
            } else {
                byte[] text = scoreText(score);
                add(text, 0, text.length);
            }
        }

        /** lpEncodeBacklen: 7-bit groups, most significant first, all but the first with the high bit. */
        private void writeBacklen(int size) {
            int groups = size <= 127 ? 1 : size < 16383 ? 2 : size < 2097151 ? 3 : size < 268435455 ? 4 : 5;
            for (int i = groups - 1; i >= 0; i--) {
                int group = size >>> 7 * i & 0x7F;
                body.writeByte(i == groups - 1 ? group : group | 0x80);
            }
            count++;
        }

        public int count() {
            return count;
        }

        /** The whole listpack: header (total bytes, count), entries, end byte. */
        public byte[] toByteArray() {
            byte[] entries = body.toByteArray();
            RdbOutput out = new RdbOutput(false);
            out.writeLittleEndian(HEADER_BYTES + entries.length + 1L, 4);
            out.writeLittleEndian(Math.min(count, UNKNOWN_COUNT), 2);
            out.write(entries, 0, entries.length);
            out.writeByte(END);
            return out.toByteArray();
        }
    }

    /** The entries of a Redis listpack, integers as their decimal text; every byte is checked. */
    public static List<byte[]> read(byte[] listpack) {
        RdbInput in = new RdbInput(listpack, 0, listpack.length);
        if (listpack.length < HEADER_BYTES + 1 || in.readLittleEndian(4) != listpack.length
            || (listpack[listpack.length - 1] & 0xFF) != END) {
            throw new RdbFormatException("invalid listpack header");
        }
        int declared = (int) in.readLittleEndian(2);
        List<byte[]> entries = new ArrayList<>();
        int position = HEADER_BYTES;
        while (position < listpack.length - 1) {
            int start = position;
            int header = listpack[position] & 0xFF;
            byte[] value;
            int size;
            if (header < 0x80) {
                value = text(header);
                size = 1;
            } else if (header < 0xC0) {
                size = 1 + (header & 0x3F);
                value = slice(listpack, position + 1, header & 0x3F);
            } else if (header < 0xE0) {
                need(listpack, position, 2);
                int unsigned = (header & 0x1F) << 8 | listpack[position + 1] & 0xFF;
                value = text(unsigned >= 1 << 12 ? unsigned - (1 << 13) : unsigned);
                size = 2;
            } else if (header < 0xF0) {
                need(listpack, position, 2);
                int length = (header & 0x0F) << 8 | listpack[position + 1] & 0xFF;
                value = slice(listpack, position + 2, length);
                size = 2 + length;
            } else {
                int width = switch (header) {
                    case 0xF0 -> 4;
                    case 0xF1 -> 2;
                    case 0xF2 -> 3;
                    case 0xF3 -> 4;
                    case 0xF4 -> 8;
                    default -> throw new RdbFormatException("invalid listpack entry");
                };
                long number = littleEndian(listpack, position + 1, width);
                if (header == 0xF0) {
                    if (number > Integer.MAX_VALUE - 5) {
                        throw new RdbFormatException("invalid listpack entry");
                    }
                    value = slice(listpack, position + 5, (int) number);
                    size = 5 + (int) number;
                } else {
                    int shift = 64 - 8 * width;
                    value = text(number << shift >> shift);
                    size = 1 + width;
                }
            }
            position = start + size;
            int groups = size <= 127 ? 1 : size < 16383 ? 2 : size < 2097151 ? 3 : size < 268435455 ? 4 : 5;
            need(listpack, position, groups);
            long backlen = 0;
            for (int i = 0; i < groups; i++) {
                backlen = backlen << 7 | listpack[position + i] & 0x7F;
            }
            if (backlen != size) {
                throw new RdbFormatException("invalid listpack back-length");
            }
            position += groups;
            entries.add(value);
        }
        if (position != listpack.length - 1 || (declared != UNKNOWN_COUNT && declared != entries.size())) {
            throw new RdbFormatException("invalid listpack");
        }
        return entries;
    }

    /** The entries of a ziplist (RDB versions before 10), integers as their decimal text. */
    public static List<byte[]> readZiplist(byte[] ziplist) {
        RdbInput in = new RdbInput(ziplist, 0, ziplist.length);
        if (ziplist.length < 11 || in.readLittleEndian(4) != ziplist.length
            || (ziplist[ziplist.length - 1] & 0xFF) != END) {
            throw new RdbFormatException("invalid ziplist header");
        }
        in.readLittleEndian(4);
        int declared = (int) in.readLittleEndian(2);
        List<byte[]> entries = new ArrayList<>();
        int position = 10;
        while (position < ziplist.length - 1) {
            int previous = ziplist[position] & 0xFF;
            position += previous < 254 ? 1 : 5;
            need(ziplist, position, 1);
            int encoding = ziplist[position] & 0xFF;
            byte[] value;
            switch (encoding >>> 6) {
                case 0 -> {
                    value = slice(ziplist, position + 1, encoding & 0x3F);
                    position += 1 + value.length;
                }
                case 1 -> {
                    need(ziplist, position, 2);
                    value = slice(ziplist, position + 2, (encoding & 0x3F) << 8 | ziplist[position + 1] & 0xFF);
                    position += 2 + value.length;
                }
                case 2 -> {
                    need(ziplist, position, 5);
                    long length = 0;
                    for (int i = 1; i <= 4; i++) {
                        length = length << 8 | ziplist[position + i] & 0xFF;
                    }
                    if (encoding != 0x80 || length > Integer.MAX_VALUE - 5) {
                        throw new RdbFormatException("invalid ziplist entry");
                    }
                    value = slice(ziplist, position + 5, (int) length);
                    position += 5 + value.length;
                }
                default -> {
                    int width = switch (encoding) {
                        case 0xC0 -> 2;
                        case 0xD0 -> 4;
                        case 0xE0 -> 8;
                        case 0xF0 -> 3;
                        case 0xFE -> 1;
                        default -> 0;
                    };
                    if (width == 0) {
                        if (encoding < 0xF1 || encoding > 0xFD) {
                            throw new RdbFormatException("invalid ziplist entry");
                        }
                        value = text((encoding & 0x0F) - 1);
                    } else {
                        int shift = 64 - 8 * width;
                        value = text(littleEndian(ziplist, position + 1, width) << shift >> shift);
                    }
                    position += 1 + width;
                }
            }
            entries.add(value);
        }
        if (position != ziplist.length - 1 || (declared != UNKNOWN_COUNT && declared != entries.size())) {
            throw new RdbFormatException("invalid ziplist");
        }
        return entries;
    }

    private static void need(byte[] bytes, int position, long count) {
        if (position + count > bytes.length - 1) {
            throw new RdbFormatException("entry past the end");
        }
    }

    private static byte[] slice(byte[] bytes, int offset, int length) {
        need(bytes, offset, length);
        return Arrays.copyOfRange(bytes, offset, offset + length);
    }

    private static long littleEndian(byte[] bytes, int offset, int width) {
        need(bytes, offset, width);
        long value = 0;
        for (int i = 0; i < width; i++) {
            value |= (long) (bytes[offset + i] & 0xFF) << 8 * i;
        }
        return value;
    }

    private static byte[] text(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    /** string2ll's acceptance: an optional '-', digits with no leading zero, not "-0", within a long. */
    public static boolean isCanonicalInteger(byte[] value, int offset, int length) {
        if (length == 0 || length > 20) {
            return false;
        }
        int end = offset + length;
        boolean negative = value[offset] == '-';
        int digits = negative ? offset + 1 : offset;
        if (digits == end) {
            return false;
        }
        if (value[digits] == '0') {
            return end - digits == 1 && !negative;
        }
        for (int i = digits; i < end; i++) {
            if (value[i] < '0' || value[i] > '9') {
                return false;
            }
        }
        try {
            parseCanonical(value, offset, length);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The value of a string {@link #isCanonicalInteger} accepted. */
    public static long parseCanonical(byte[] value, int offset, int length) {
        return Long.parseLong(new String(value, offset, length, StandardCharsets.US_ASCII));
    }

    /** d2string in Redis 7.0: integers below 2^52 as digits, "-0", "inf", "-inf", else {@code %.17g}. */
    public static byte[] scoreText(double score) {
        String text;
        if (Double.isInfinite(score)) {
            text = score > 0 ? "inf" : "-inf";
        } else if (score == 0) {
            text = Double.doubleToRawLongBits(score) != 0 ? "-0" : "0";
        } else if (score > -INTEGER_PRINT_LIMIT + 1 && score < INTEGER_PRINT_LIMIT && score == (long) score) {
            text = Long.toString((long) score);
        } else {
            text = printG17(score);
        }
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** C's {@code printf("%.17g")} of a finite, non-zero double. */
    static String printG17(double value) {
        BigDecimal rounded = new BigDecimal(value).round(SEVENTEEN_DIGITS);
        int exponent = rounded.precision() - rounded.scale() - 1;
        String digits = rounded.unscaledValue().abs().toString().replaceFirst("0+$", "");
        StringBuilder text = new StringBuilder(value < 0 ? "-" : "");
        if (exponent < -4 || exponent >= 17) {
            text.append(digits.charAt(0));
            if (digits.length() > 1) {
                text.append('.').append(digits, 1, digits.length());
            }
            text.append(exponent < 0 ? "e-" : "e+");
            int magnitude = Math.abs(exponent);
            text.append(magnitude < 10 ? "0" : "").append(magnitude);
        } else if (exponent >= 0) {
            StringBuilder whole = new StringBuilder(digits);
            while (whole.length() < exponent + 1) {
                whole.append('0');
            }
            text.append(whole, 0, exponent + 1);
            if (whole.length() > exponent + 1) {
                text.append('.').append(whole, exponent + 1, whole.length());
            }
        } else {
            text.append("0.").append("0".repeat(-exponent - 1)).append(digits);
        }
        return text.toString();
    }

    /** A score's text as strtod reads it (inf, -inf, decimals); NaN is refused. */
    public static double parseScore(String text) {
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        double score;
        switch (lower) {
            case "inf", "+inf", "infinity", "+infinity" -> score = Double.POSITIVE_INFINITY;
            case "-inf", "-infinity" -> score = Double.NEGATIVE_INFINITY;
            default -> {
                try {
                    score = Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new RdbFormatException("invalid score");
                }
            }
        }
        if (Double.isNaN(score) || lower.contains("n") && !Double.isInfinite(score)) {
            throw new RdbFormatException("invalid score");
        }
        return score;
    }
}
