package dev.lacewing.core.command.bitmap;

import static dev.lacewing.api.CommandFlag.DENYOOM;
import static dev.lacewing.api.CommandFlag.FAST;
import static dev.lacewing.api.CommandFlag.READONLY;
import static dev.lacewing.api.CommandFlag.WRITE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandHandler;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.IndexRange;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Set;

/**
 * The bitmap family (Redis's bitops.c): bit-level access to string values. Bit 0 is the most
 * significant bit of the first byte; bytes past the end read as zero, and a write past the end
 * grows the string with zero bytes, up to {@code proto-max-bulk-len} bytes as in Redis.
 *
 * <p>Every command reads the value in place through the {@link ValueView}. SETBIT and BITFIELD
 * write in place too ({@link Keyspace#editString}, Redis's lookupStringForBitCommand): growth past
 * the end keeps room to spare as sdsgrowzero does, and a SETBIT that changes nothing on a string
 * already raw edits nothing. BITOP stores a new string, as Redis does.
 *
 * <p>BITOP declares all its keys (destination and sources), so both engines give it every key at
 * once; on the shared-nothing engine keys of several shards make it an atomic transaction.
 *
 * <p>Stateless; each handler runs on the thread the engine gives the command, with its keys.
 */
public final class BitmapCommands {

    private static final long DEFAULT_PROTO_MAX_BULK_LEN = 512L * 1024 * 1024;
    /** The longest string a Java array can hold, whatever proto-max-bulk-len says. */
    private static final long MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 16;
    private static final byte[] EMPTY = new byte[0];
    private static final VarHandle BIG_ENDIAN_LONG =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private static final int GET = 0;
    private static final int SET = 1;
    private static final int INCRBY = 2;
    private static final int WRAP = 0;
    private static final int SAT = 1;
    private static final int FAIL = 2;

    private BitmapCommands() {
    }

    public static void register(CommandRegistry registry) {
        register(registry, "setbit", 4, 1, 1, "Sets or clears the bit at offset in the string value stored at key",
            BitmapCommands::setbit, WRITE, DENYOOM);
        register(registry, "getbit", 3, 1, 1, "Returns the bit value at offset in the string value stored at key",
            BitmapCommands::getbit, READONLY, FAST);
        register(registry, "bitcount", -2, 1, 1, "Count set bits in a string", BitmapCommands::bitcount, READONLY);
        register(registry, "bitpos", -3, 1, 1, "Find first bit set or clear in a string",
            BitmapCommands::bitpos, READONLY);
        register(registry, "bitop", -4, 2, -1, "Perform bitwise operations between strings",
            BitmapCommands::bitop, WRITE, DENYOOM);
        register(registry, "bitfield", -2, 1, 1, "Perform arbitrary bitfield integer operations on strings",
            ctx -> bitfield(ctx, false), WRITE, DENYOOM);
        register(registry, "bitfield_ro", -2, 1, 1,
            "Perform arbitrary bitfield integer operations on strings. Read-only variant of BITFIELD",
            ctx -> bitfield(ctx, true), READONLY, FAST);
    }

    private static void register(CommandRegistry registry, String name, int arity, int firstKey, int lastKey,
                                 String summary, CommandHandler handler, CommandFlag... flags) {
        registry.register(new CommandSpec(name, arity, Set.of(flags), firstKey, lastKey, 1, KeyScope.KEYS,
            "bitmap", summary), handler);
    }

    // ---- arguments ------------------------------------------------------------------------------

    /**
     * The bit offset of argument {@code index} (getBitOffsetFromArgument), or -1 after replying the
     * error. With {@code bits} > 0 a {@code #N} form means N * bits (BITFIELD). The byte it falls in
     * must be below proto-max-bulk-len, and below what a Java array holds.
     */
    private static long bitOffset(CommandContext ctx, int index, int bits) {
        Arguments args = ctx.arguments();
        int offset = args.offset(index);
        int length = args.length(index);
        boolean multiple = bits > 0 && length > 0 && args.array()[offset] == '#';
        long value;
        try {
            value = multiple ? Numbers.parseLong(args.array(), offset + 1, length - 1)
                : Numbers.parseLong(args.array(), offset, length);
        } catch (InvalidNumber e) {
            ctx.reply().error(Errors.BIT_OFFSET);
            return -1;
        }
        if (multiple) {
            value *= bits;
        }
        if (value < 0 || (value >> 3) >= maxLength(ctx)) {
            ctx.reply().error(Errors.BIT_OFFSET);
            return -1;
        }
        return value;
    }

    private static long maxLength(CommandContext ctx) {
        return Math.min(ctx.server().settings().getLong("proto-max-bulk-len", DEFAULT_PROTO_MAX_BULK_LEN),
            MAX_ARRAY_LENGTH);
    }

    /** Argument {@code index} as a long, or null after replying {@code error}. */
    private static Long longArgument(CommandContext ctx, int index, String error) {
        Arguments args = ctx.arguments();
        try {
            return Numbers.parseLong(args.array(), args.offset(index), args.length(index));
        } catch (InvalidNumber e) {
            ctx.reply().error(error);
            return null;
        }
    }

    /**
     * Opens the string of argument 1, checked to be a string or missing, for writing in place
     * (lookupStringForBitCommand): grown with zero bytes to hold byte {@code lastByte}, raw, with
     * its expiry; a missing key is created at that length without one. The view shows it.
     */
    private static void openForWriting(CommandContext ctx, ValueView view, long lastByte, long changes) {
        Arguments args = ctx.arguments();
        view.clear();
        ctx.keyspace().editString(args.array(), args.offset(1), args.length(1), (int) (lastByte + 1), view, changes);
    }

    private static boolean isRaw(CommandContext ctx) {
        Arguments args = ctx.arguments();
        return ctx.keyspace().stringEncoding(args.array(), args.offset(1), args.length(1)) == StringEncoding.RAW;
    }

    /** What {@link #lookUpString} found. */
    private static final int MISSING = 0;
    private static final int FOUND = 1;
    private static final int REPLIED = -1;

    /**
     * Points the view at the string of argument 1: {@link #FOUND}, {@link #MISSING} (the view is
     * then empty), or {@link #REPLIED} after replying WRONGTYPE for another type.
     */
    private static int lookUpString(CommandContext ctx, ValueView view) {
        Arguments args = ctx.arguments();
        if (!ctx.keyspace().getValue(args.array(), args.offset(1), args.length(1), view)) {
            view.clear();
            return MISSING;
        }
        if (!view.isString()) {
            view.clear();
            ctx.reply().error(Errors.WRONG_TYPE);
            return REPLIED;
        }
        return FOUND;
    }

    /** Bit {@code bit} of a string view, either form; 0 past its end. */
    private static int bitAt(ValueView string, long bit) {
        long at = bit >>> 3;
        if (at >= string.length()) {
            return 0;
        }
        return (string.byteAt((int) at) >> (7 - (int) (bit & 7))) & 1;
    }

    private static int bitAt(byte[] array, int offset, int length, long bit) {
        long at = bit >>> 3;
        if (at >= length) {
            return 0;
        }
        return (array[offset + (int) at] >> (7 - (int) (bit & 7))) & 1;
    }

    // ---- SETBIT / GETBIT ------------------------------------------------------------------------

    /** SETBIT key offset 0|1: replies the bit's old value; argument errors come before WRONGTYPE. */
    private static void setbit(CommandContext ctx) {
        long bit = bitOffset(ctx, 2, 0);
        if (bit < 0) {
            return;
        }
        Long on = longArgument(ctx, 3, Errors.BIT_VALUE);
        if (on == null) {
            return;
        }
        if ((on & ~1L) != 0) {
            ctx.reply().error(Errors.BIT_VALUE);
            return;
        }
        ValueView view = ctx.valueView();
        int found = lookUpString(ctx, view);
        if (found == REPLIED) {
            return;
        }
        int byteIndex = (int) (bit >>> 3);
        int previous = found == FOUND ? bitAt(view, bit) : 0;
        // Created, grown or a bit flipped: only then does Redis 7.0 tell of a change ("setbit").
        boolean changed = found == MISSING || byteIndex >= view.length() || previous != on;
        // Redis unshares the value first (dbUnshareStringValue): even an unchanged bit leaves it raw,
        // though that alone is no change, counted or signalled.
        if (changed || !isRaw(ctx)) {
            openForWriting(ctx, view, byteIndex, changed ? 1 : 0);
            byte old = view.byteAt(byteIndex);
            int mask = 1 << (7 - (int) (bit & 7));
            view.setByteAt(byteIndex, (byte) (on == 1 ? old | mask : old & ~mask));
        }
        view.clear();
        if (changed) {
            KeyspaceEvents.notify(ctx, KeyspaceEvents.STRING, "setbit", ctx.arguments(), 1);
        }
        ctx.reply().integer(previous);
    }

    private static void getbit(CommandContext ctx) {
        long bit = bitOffset(ctx, 2, 0);
        if (bit < 0) {
            return;
        }
        ValueView view = ctx.valueView();
        int found = lookUpString(ctx, view);
        if (found != FOUND) {
            if (found == MISSING) {
                ctx.reply().integer(0);
            }
            return;
        }
        int value = bitAt(view, bit);
        view.clear();
        ctx.reply().integer(value);
    }

    // ---- BITCOUNT / BITPOS ----------------------------------------------------------------------

    /**
     * BITCOUNT key [start end [BYTE|BIT]]. As in Redis 7.0, a missing key answers 0 before the
     * arguments are looked at; negative indexes count from the end and ranges are clamped.
     */
    private static void bitcount(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ValueView view = ctx.valueView();
        int found = lookUpString(ctx, view);
        if (found != FOUND) {
            if (found == MISSING) {
                ctx.reply().integer(0);
            }
            return;
        }
        byte[] array = view.array();
        int offset = view.offset();
        int length = view.length();
        view.clear();
        int count = args.count();
        long first;
        long last;
        if (count == 4 || count == 5) {
            IndexRange asked = IndexRange.parse(ctx, 2);
            if (asked == null) {
                return;
            }
            long start = asked.start();
            long end = asked.end();
            if (start < 0 && end < 0 && start > end) {
                ctx.reply().integer(0);
                return;
            }
            boolean inBits = false;
            if (count == 5) {
                if (args.is(4, "bit")) {
                    inBits = true;
                } else if (!args.is(4, "byte")) {
                    ctx.reply().error(Errors.SYNTAX);
                    return;
                }
            }
            long[] bits = bitRange(start, end, inBits, length);
            if (bits == null) {
                ctx.reply().integer(0);
                return;
            }
            first = bits[0];
            last = bits[1];
        } else if (count == 2) {
            first = 0;
            last = ((long) length << 3) - 1;
        } else {
            ctx.reply().error(Errors.SYNTAX);
            return;
        }
        ctx.reply().integer(first > last ? 0 : countBits(array, offset, first, last));
    }

    /**
     * BITCOUNT and BITPOS's range over a string of {@code length} bytes: {@code start} and
     * {@code end} in bits or bytes, clamped as GETRANGE clamps them; the first and last bit, or
     * null when the range is empty.
     */
    private static long[] bitRange(long start, long end, boolean inBits, int length) {
        long total = inBits ? (long) length << 3 : length;
        long first = IndexRange.clampStart(start, total);
        long last = IndexRange.clampEnd(end, total);
        if (first > last) {
            // Before scaling bytes to bits: a start near Long.MAX_VALUE would overflow.
            return null;
        }
        return inBits ? new long[] {first, last} : new long[] {first << 3, (last << 3) + 7};
    }

    /** Set bits in bit range [first, last] of the string at {@code offset}; O(range / 64). */
    static long countBits(byte[] array, int offset, long first, long last) {
        long count = 0;
        long bit = first;
        while (bit <= last && (bit & 7) != 0) {
            count += bitAt(array, offset, Integer.MAX_VALUE, bit++);
        }
        int at = offset + (int) (bit >>> 3);
        int wholeEnd = offset + (int) ((last + 1) >>> 3);
        for (; at + 8 <= wholeEnd; at += 8) {
            count += Long.bitCount((long) BIG_ENDIAN_LONG.get(array, at));
        }
        for (; at < wholeEnd; at++) {
            count += Integer.bitCount(array[at] & 0xff);
        }
        for (bit = Math.max(bit, (long) (wholeEnd - offset) << 3); bit <= last; bit++) {
            count += bitAt(array, offset, Integer.MAX_VALUE, bit);
        }
        return count;
    }

    /**
     * BITPOS key 0|1 [start [end [BYTE|BIT]]]: the first bit of the value in the range, or -1. A
     * missing key is all zeros. Looking for 0 without an explicit end, the string counts as padded
     * with zeros, so an all-ones range answers the first bit after the string.
     */
    private static void bitpos(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Long bitArgument = longArgument(ctx, 2, Errors.NOT_INTEGER);
        if (bitArgument == null) {
            return;
        }
        if (bitArgument != 0 && bitArgument != 1) {
            ctx.reply().error(Errors.BIT_ARGUMENT);
            return;
        }
        int wanted = bitArgument.intValue();
        ValueView view = ctx.valueView();
        int found = lookUpString(ctx, view);
        if (found != FOUND) {
            if (found == MISSING) {
                ctx.reply().integer(wanted == 1 ? -1 : 0);
            }
            return;
        }
        byte[] array = view.array();
        int offset = view.offset();
        int length = view.length();
        view.clear();
        int count = args.count();
        boolean endGiven = false;
        long first;
        long last;
        if (count >= 4 && count <= 6) {
            long start;
            long end = 0;
            boolean inBits = false;
            try {
                start = Numbers.parseLong(args.array(), args.offset(3), args.length(3));
                if (count == 6) {
                    if (args.is(5, "bit")) {
                        inBits = true;
                    } else if (!args.is(5, "byte")) {
                        ctx.reply().error(Errors.SYNTAX);
                        return;
                    }
                }
                if (count >= 5) {
                    end = Numbers.parseLong(args.array(), args.offset(4), args.length(4));
                    endGiven = true;
                }
            } catch (InvalidNumber e) {
                ctx.reply().error(Errors.NOT_INTEGER);
                return;
            }
            if (!endGiven) {
                end = inBits ? ((long) length << 3) - 1 : length - 1;
            }
            long[] bits = bitRange(start, end, inBits, length);
            if (bits == null) {
                ctx.reply().integer(-1);
                return;
            }
            first = bits[0];
            last = bits[1];
        } else if (count == 3) {
            first = 0;
            last = ((long) length << 3) - 1;
        } else {
            ctx.reply().error(Errors.SYNTAX);
            return;
        }
        if (first > last) {
            ctx.reply().integer(-1);
            return;
        }
        long position = findBit(array, offset, first, last, wanted);
        if (position < 0 && wanted == 0 && !endGiven) {
            position = last + 1;
        }
        ctx.reply().integer(position);
    }

    /** The first bit equal to {@code wanted} in [first, last], or -1; whole bytes are skipped at once. */
    static long findBit(byte[] array, int offset, long first, long last, int wanted) {
        int skip = wanted == 1 ? 0 : 0xff;
        long bit = first;
        while (bit <= last) {
            if ((bit & 7) == 0 && bit + 7 <= last && (array[offset + (int) (bit >>> 3)] & 0xff) == skip) {
                bit += 8;
                continue;
            }
            if (bitAt(array, offset, Integer.MAX_VALUE, bit) == wanted) {
                return bit;
            }
            bit++;
        }
        return -1;
    }

    // ---- BITOP ----------------------------------------------------------------------------------

    /**
     * BITOP AND|OR|XOR|NOT destkey key...: the result is as long as the longest source, shorter
     * ones padded with zeros; stored without expiry, or the destination deleted when every source
     * is empty or missing. Replies the result's length. Sources are read in place, one at a time,
     * and folded into the result.
     */
    private static void bitop(CommandContext ctx) {
        Arguments args = ctx.arguments();
        char op;
        if (args.is(1, "and")) {
            op = '&';
        } else if (args.is(1, "or")) {
            op = '|';
        } else if (args.is(1, "xor")) {
            op = '^';
        } else if (args.is(1, "not")) {
            op = '~';
        } else {
            ctx.reply().error(Errors.SYNTAX);
            return;
        }
        int count = args.count();
        if (op == '~' && count != 4) {
            ctx.reply().error(Errors.BITOP_NOT_ONE_KEY);
            return;
        }
        Keyspace keyspace = ctx.keyspace();
        ValueView view = ctx.valueView();
        int maxLength = 0;
        for (int i = 3; i < count; i++) {
            if (keyspace.getValue(args.array(), args.offset(i), args.length(i), view)) {
                if (!view.isString()) {
                    view.clear();
                    ctx.reply().error(Errors.WRONG_TYPE);
                    return;
                }
                maxLength = Math.max(maxLength, view.length());
            } else {
                KeyspaceEvents.missed(ctx, args, i);
            }
        }
        view.clear();
        if (maxLength == 0) {
            if (keyspace.remove(args.array(), args.offset(2), args.length(2))) {
                KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "del", args, 2);
            }
            ctx.reply().integer(0);
            return;
        }
        byte[] result = new byte[maxLength];
        for (int i = 3; i < count; i++) {
            int length = 0;
            byte[] array = EMPTY;
            int offset = 0;
            if (keyspace.getValue(args.array(), args.offset(i), args.length(i), view)) {
                array = view.array();
                offset = view.offset();
                length = view.length();
            }
            fold(op, i == 3, result, array, offset, length);
            view.clear();
        }
        keyspace.putEncoded(args.array(), args.offset(2), args.length(2), result, Keyspace.NO_EXPIRY,
            StringEncoding.RAW);
        KeyspaceEvents.notify(ctx, KeyspaceEvents.STRING, "set", args, 2);
        ctx.reply().integer(maxLength);
    }

    /** Applies one source to the result; the first source is copied (negated for NOT). */
    private static void fold(char op, boolean firstSource, byte[] result, byte[] array, int offset, int length) {
        int common = Math.min(length, result.length);
        if (firstSource) {
            System.arraycopy(array, offset, result, 0, common);
            if (op == '~') {
                for (int j = 0; j < result.length; j++) {
                    result[j] = (byte) ~result[j];
                }
            }
            return;
        }
        switch (op) {
            case '&' -> {
                for (int j = 0; j < common; j++) {
                    result[j] &= array[offset + j];
                }
                Arrays.fill(result, common, result.length, (byte) 0);
            }
            case '|' -> {
                for (int j = 0; j < common; j++) {
                    result[j] |= array[offset + j];
                }
            }
            default -> {
                for (int j = 0; j < common; j++) {
                    result[j] ^= array[offset + j];
                }
            }
        }
    }

    // ---- BITFIELD -------------------------------------------------------------------------------

    /** One parsed BITFIELD operation. */
    private record Operation(int opcode, boolean signed, int bits, long offset, long value, int overflow) {
    }

    /**
     * BITFIELD key [GET type offset | SET type offset value | INCRBY type offset increment |
     * OVERFLOW WRAP|SAT|FAIL]... and BITFIELD_RO (GET only). Every operation is parsed before
     * anything runs, so an error leaves the key untouched. With any write the string grows to
     * hold the farthest bit written, even when an OVERFLOW FAIL then writes nothing.
     */
    private static void bitfield(CommandContext ctx, boolean readOnly) {
        Arguments args = ctx.arguments();
        int count = args.count();
        Operation[] operations = new Operation[count / 3 + 1];
        int operationCount = 0;
        int overflow = WRAP;
        boolean writes = false;
        long highestWrite = 0;
        for (int j = 2; j < count; j++) {
            int remaining = count - j - 1;
            int opcode;
            if (args.is(j, "get") && remaining >= 2) {
                opcode = GET;
            } else if (args.is(j, "set") && remaining >= 3) {
                opcode = SET;
            } else if (args.is(j, "incrby") && remaining >= 3) {
                opcode = INCRBY;
            } else if (args.is(j, "overflow") && remaining >= 1) {
                j++;
                if (args.is(j, "wrap")) {
                    overflow = WRAP;
                } else if (args.is(j, "sat")) {
                    overflow = SAT;
                } else if (args.is(j, "fail")) {
                    overflow = FAIL;
                } else {
                    ctx.reply().error(Errors.BITFIELD_OVERFLOW);
                    return;
                }
                continue;
            } else {
                ctx.reply().error(Errors.SYNTAX);
                return;
            }
            int type = bitfieldType(args, j + 1);
            if (type == 0) {
                ctx.reply().error(Errors.BITFIELD_TYPE);
                return;
            }
            boolean signed = type < 0;
            int bits = Math.abs(type);
            long offset = bitOffset(ctx, j + 2, bits);
            if (offset < 0) {
                return;
            }
            long value = 0;
            if (opcode != GET) {
                writes = true;
                highestWrite = Math.max(highestWrite, offset + bits - 1);
                Long parsed = longArgument(ctx, j + 3, Errors.NOT_INTEGER);
                if (parsed == null) {
                    return;
                }
                value = parsed;
            }
            operations[operationCount++] = new Operation(opcode, signed, bits, offset, value, overflow);
            j += opcode == GET ? 2 : 3;
        }
        ReplyWriter reply = ctx.reply();
        if (!writes) {
            ValueView view = ctx.valueView();
            int found = lookUpString(ctx, view);
            if (found == REPLIED) {
                return;
            }
            if (found == MISSING && !readOnly) {
                // BITFIELD's GET-only form reads as Redis's lookupKeyRead (BITFIELD_RO's view reports its own).
                KeyspaceEvents.missed(ctx, args, 1);
            }
            Window window = found == FOUND ? Window.of(view, operations, operationCount) : Window.EMPTY;
            byte[] array = window.array;
            int offset = window.offset;
            int length = found == FOUND ? view.length() : 0;
            reply.array(operationCount);
            for (int i = 0; i < operationCount; i++) {
                Operation operation = operations[i];
                reply.integer(read(array, offset, length, operation.offset, operation.bits, operation.signed));
            }
            view.clear();
            return;
        }
        if (readOnly) {
            reply.error(Errors.BITFIELD_RO_GET_ONLY);
            return;
        }
        ValueView view = ctx.valueView();
        int found = lookUpString(ctx, view);
        if (found == REPLIED) {
            return;
        }
        // Each write that created or grew the string, or changed bits, is a change ("setbit", one in
        // server.dirty) in Redis 7.0; an overflow that FAIL skipped is not, even on a string it created.
        boolean grown = found == MISSING || (highestWrite >>> 3) >= view.length();
        int changes = 0;
        openForWriting(ctx, view, highestWrite >>> 3, 0);
        Window window = Window.of(view, operations, operationCount);
        byte[] value = window.array;
        int start = window.offset;
        int length = view.length();
        reply.array(operationCount);
        for (int i = 0; i < operationCount; i++) {
            Operation operation = operations[i];
            if (operation.opcode == GET) {
                reply.integer(read(value, start, length, operation.offset, operation.bits, operation.signed));
                continue;
            }
            long previous = read(value, start, length, operation.offset, operation.bits, operation.signed);
            long target = operation.opcode == INCRBY ? previous + operation.value : operation.value;
            long increment = operation.opcode == INCRBY ? operation.value : 0;
            long base = operation.opcode == INCRBY ? previous : operation.value;
            long[] limited = {target};
            boolean overflowed = operation.signed
                ? signedOverflow(base, increment, operation.bits, operation.overflow, limited)
                : unsignedOverflow(base, increment, operation.bits, operation.overflow, limited);
            if (overflowed && operation.overflow == FAIL) {
                reply.nullBulk();
                continue;
            }
            long stored = overflowed ? limited[0] : target;
            reply.integer(operation.opcode == INCRBY ? stored : previous);
            write(value, start, operation.offset, operation.bits, stored);
            if (grown || read(value, start, length, operation.offset, operation.bits, operation.signed) != previous) {
                changes++;
            }
        }
        window.writeBack(view);
        view.clear();
        // Counted and signalled once known: bitfieldGeneric's signalModifiedKey and server.dirty += changes.
        ctx.keyspace().edited(args.array(), args.offset(1), args.length(1), changes);
        if (changes > 0) {
            KeyspaceEvents.notify(ctx, KeyspaceEvents.STRING, "setbit", ctx.arguments(), 1);
        }
    }

    /**
     * The bytes BITFIELD's operations reach, as an array and the offset of byte 0 of the string in
     * it: the view's own slice, or for a chunked string a copy of just the bytes from the lowest to
     * the highest the operations touch (the offset then negative), written back after the writes.
     */
    private record Window(byte[] array, int offset, int first, int count) {

        static final Window EMPTY = new Window(BitmapCommands.EMPTY, 0, 0, 0);

        static Window of(ValueView view, Operation[] operations, int operationCount) {
            if (!view.isChunked()) {
                return new Window(view.array(), view.offset(), 0, 0);
            }
            long lowest = Long.MAX_VALUE;
            long highest = 0;
            for (int i = 0; i < operationCount; i++) {
                lowest = Math.min(lowest, operations[i].offset >>> 3);
                highest = Math.max(highest, (operations[i].offset + operations[i].bits - 1) >>> 3);
            }
            int first = (int) Math.min(lowest, view.length());
            int count = (int) (Math.min(highest + 1, view.length()) - first);
            byte[] copy = new byte[(int) (highest + 1 - first)];
            view.copyTo(first, copy, 0, Math.max(count, 0));
            return new Window(copy, -first, first, Math.max(count, 0));
        }

        /** Writes a chunked string's copied bytes back; nothing for a slice, written in place. */
        void writeBack(ValueView view) {
            if (view.isChunked()) {
                view.write(first, array, 0, count);
            }
        }
    }

    /**
     * A BITFIELD type (getBitfieldTypeFromArgument): {@code i1}..{@code i64} as a negative width,
     * {@code u1}..{@code u63} as a positive one, 0 when invalid. The prefix is lower case only, as
     * in Redis.
     */
    private static int bitfieldType(Arguments args, int index) {
        int offset = args.offset(index);
        int length = args.length(index);
        if (length < 2) {
            return 0;
        }
        byte prefix = args.array()[offset];
        if (prefix != 'i' && prefix != 'u') {
            return 0;
        }
        long bits;
        try {
            bits = Numbers.parseLong(args.array(), offset + 1, length - 1);
        } catch (InvalidNumber e) {
            return 0;
        }
        if (bits < 1 || bits > (prefix == 'i' ? 64 : 63)) {
            return 0;
        }
        return prefix == 'i' ? (int) -bits : (int) bits;
    }

    /** {@code bits} bits from bit {@code from}, most significant first; bytes past the end read as 0. */
    static long read(byte[] array, int offset, int length, long from, int bits, boolean signed) {
        long value = 0;
        for (int j = 0; j < bits; j++) {
            value = value << 1 | bitAt(array, offset, length, from + j);
        }
        if (signed && bits < 64 && (value & (1L << (bits - 1))) != 0) {
            value |= -1L << bits;
        }
        return value;
    }

    /** Writes the low {@code bits} bits of {@code value} from bit {@code from} of the bits at {@code offset}, most significant first. */
    static void write(byte[] array, int offset, long from, int bits, long value) {
        for (int j = 0; j < bits; j++) {
            long bit = from + j;
            int mask = 1 << (7 - (int) (bit & 7));
            int at = offset + (int) (bit >>> 3);
            if ((value >>> (bits - 1 - j) & 1) != 0) {
                array[at] |= (byte) mask;
            } else {
                array[at] &= (byte) ~mask;
            }
        }
    }

    /**
     * checkUnsignedBitfieldOverflow: whether {@code value + increment} leaves [0, 2^bits - 1]
     * ({@code value} is unsigned); if so, {@code limit[0]} gets the wrapped or saturated result.
     */
    static boolean unsignedOverflow(long value, long increment, int bits, int overflow, long[] limit) {
        long max = (1L << bits) - 1;
        long maxIncrement = max - value;
        long minIncrement = -value;
        if (Long.compareUnsigned(value, max) > 0 || (increment > 0 && increment > maxIncrement)) {
            limit[0] = overflow == WRAP ? (value + increment) & max : max;
            return true;
        }
        if (increment < 0 && increment < minIncrement) {
            limit[0] = overflow == WRAP ? (value + increment) & max : 0;
            return true;
        }
        return false;
    }

    /**
     * checkSignedBitfieldOverflow: whether {@code value + increment} leaves the range of a
     * {@code bits}-bit two's complement integer; if so, {@code limit[0]} gets the wrapped
     * (sign-extended) or saturated result. The arithmetic wraps as Redis's does.
     */
    static boolean signedOverflow(long value, long increment, int bits, int overflow, long[] limit) {
        long max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
        long min = -max - 1;
        long maxIncrement = max - value;
        long minIncrement = min - value;
        boolean high = value > max || (bits != 64 && increment > maxIncrement)
            || (value >= 0 && increment > 0 && increment > maxIncrement);
        boolean low = !high && (value < min || (bits != 64 && increment < minIncrement)
            || (value < 0 && increment < 0 && increment < minIncrement));
        if (!high && !low) {
            return false;
        }
        if (overflow == WRAP) {
            long sum = value + increment;
            if (bits < 64) {
                long mask = -1L << bits;
                sum = (sum & (1L << (bits - 1))) != 0 ? sum | mask : sum & ~mask;
            }
            limit[0] = sum;
        } else {
            limit[0] = high ? max : min;
        }
        return true;
    }
}
