package dev.lacewing.core.command;

import dev.lacewing.api.WrongTypeException;
import dev.lacewing.core.config.Config;

/** Error replies, worded exactly as Redis words them; defined once. */
public final class Errors {

    public static final String SYNTAX = "ERR syntax error";
    /** SAVE's reply when the save failed (shared.err): the reason is in the log. */
    public static final String SAVE_FAILED = "ERR";
    public static final String SHUTDOWN_FAILED = "ERR Errors trying to SHUTDOWN. Check logs.";
    public static final String NOT_INTEGER = "ERR value is not an integer or out of range";
    public static final String NOT_FLOAT = "ERR value is not a valid float";
    public static final String WRONG_TYPE = WrongTypeException.MESSAGE;
    public static final String NO_SUCH_KEY = "ERR no such key";
    public static final String OVERFLOW = "ERR increment or decrement would overflow";
    public static final String NAN_OR_INFINITY = "ERR increment would produce NaN or Infinity";
    public static final String DB_INDEX_OUT_OF_RANGE = "ERR DB index is out of range";
    public static final String STRING_TOO_LONG = "ERR string exceeds maximum allowed size (proto-max-bulk-len)";
    public static final String NOAUTH = "NOAUTH Authentication required.";
    public static final String WRONGPASS = "WRONGPASS invalid username-password pair or user is disabled.";
    public static final String DECREMENT_OVERFLOW = "ERR decrement would overflow";
    public static final String OFFSET_OUT_OF_RANGE = "ERR offset is out of range";
    public static final String INVALID_CURSOR = "ERR invalid cursor";
    public static final String SAME_OBJECT = "ERR source and destination objects are the same";
    public static final String EXPIRE_NX_CONFLICT = "ERR NX and XX, GT or LT options at the same time are not compatible";
    public static final String EXPIRE_GT_LT_CONFLICT = "ERR GT and LT options at the same time are not compatible";
    public static final String INVALID_FIRST_DB_INDEX = "ERR invalid first DB index";
    public static final String INVALID_SECOND_DB_INDEX = "ERR invalid second DB index";
    public static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";
    /** What a replica, and a client in MONITOR mode (which Redis flags as one), gets for a key command. */
    public static final String REPLICA_KEYSPACE = "ERR Replica can't interact with the keyspace";
    public static final String LFU_NOT_SELECTED = "ERR An LFU maxmemory policy is not selected, access frequency not "
        + "tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time "
        + "to adjust.";
    public static final String LFU_SELECTED = "ERR An LFU maxmemory policy is selected, idle time not tracked. Please "
        + "note that when switching between policies at runtime LRU and LFU data will take some time to adjust.";
    public static final String HASH_VALUE_NOT_INTEGER = "ERR hash value is not an integer";
    public static final String HASH_VALUE_NOT_FLOAT = "ERR hash value is not a float";
    public static final String VALUE_NAN_OR_INFINITY = "ERR value is NaN or Infinity";
    public static final String VALUE_OUT_OF_RANGE = "ERR value is out of range";
    public static final String VALUE_MUST_BE_POSITIVE = "ERR value is out of range, must be positive";
    public static final String NUMKEYS_NOT_POSITIVE = "ERR numkeys should be greater than 0";
    public static final String NUMKEYS_OVER_ARGS = "ERR Number of keys can't be greater than number of args";
    public static final String BUSYKEY = "BUSYKEY Target key name already exists.";
    public static final String DUMP_PAYLOAD = "ERR DUMP payload version or checksum are wrong";
    public static final String BAD_DATA_FORMAT = "ERR Bad data format";
    public static final String INVALID_TTL = "ERR Invalid TTL value, must be >= 0";
    public static final String INVALID_IDLETIME = "ERR Invalid IDLETIME value, must be >= 0";
    public static final String INVALID_FREQ = "ERR Invalid FREQ value, must be >= 0 and <= 255";
    public static final String LIMIT_NEGATIVE = "ERR LIMIT can't be negative";
    public static final String BIT_OFFSET = "ERR bit offset is not an integer or out of range";
    public static final String BIT_VALUE = "ERR bit is not an integer or out of range";
    public static final String BIT_ARGUMENT = "ERR The bit argument must be 1 or 0.";
    public static final String BITOP_NOT_ONE_KEY = "ERR BITOP NOT must be called with a single source key.";
    public static final String BITFIELD_TYPE =
        "ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.";
    public static final String BITFIELD_OVERFLOW = "ERR Invalid OVERFLOW type specified";
    public static final String BITFIELD_RO_GET_ONLY = "ERR BITFIELD_RO only supports the GET subcommand";
    public static final String NOT_HYPERLOGLOG = "WRONGTYPE Key is not a valid HyperLogLog string value.";
    public static final String CORRUPT_HYPERLOGLOG = "INVALIDOBJ Corrupted HLL object detected";
    public static final String UNBLOCKED = "UNBLOCKED client unblocked via CLIENT UNBLOCK";

    public static final String NOT_FLOAT_RANGE = "ERR min or max is not a float";
    public static final String NOT_LEX_RANGE = "ERR min or max not valid string range item";
    public static final String SCORE_NAN = "ERR resulting score is not a number (NaN)";
    public static final String WEIGHT_NOT_FLOAT = "ERR weight value is not a float";
    public static final String ZADD_INCR_PAIRS = "ERR INCR option supports a single increment-element pair";
    public static final String ZADD_NX_XX = "ERR XX and NX options at the same time are not compatible";
    public static final String ZADD_GT_LT_NX = "ERR GT, LT, and/or NX options at the same time are not compatible";
    public static final String LIMIT_NEEDS_BYSCORE_OR_BYLEX =
        "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX";
    public static final String WITHSCORES_WITH_BYLEX = "ERR syntax error, WITHSCORES not supported in combination with BYLEX";
    public static final String COUNT_NOT_POSITIVE = "ERR count should be greater than 0";

    private Errors() {
    }

    public static String wrongArity(String command) {
        return "ERR wrong number of arguments for '" + command + "' command";
    }

    /**
     * processCommand's refusal of a protected command ({@link dev.lacewing.api.CommandFlag#PROTECTED})
     * that its setting does not allow for the client.
     */
    public static String protectedCommandNotAllowed(String command) {
        return "ERR " + command.toUpperCase(java.util.Locale.ROOT) + " command not allowed. If the "
            + Config.protectedCommandSetting(command) + " option is set to \"local\", you can run it from a local "
            + "connection, otherwise you need to set this option in the configuration file, and then restart the "
            + "server.";
    }

    public static String invalidExpireTime(String command) {
        return "ERR invalid expire time in '" + command + "' command";
    }

    /** An option the command does not know, quoted as {@link #quoting} says. */
    public static byte[] unsupportedOption(byte[] array, int offset, int length) {
        return quoting("ERR Unsupported option ", array, offset, length, Integer.MAX_VALUE, "");
    }

    /**
     * An error quoting a client's argument as Redis's addReplyErrorFormat with {@code %s} (or
     * {@code %.Ns}, at most {@code limit} bytes) does: the raw bytes as a C string, so up to the
     * first NUL byte; the reply writer then turns CR and LF into spaces.
     */
    public static byte[] quoting(String before, byte[] array, int offset, int length, int limit, String after) {
        int end = offset;
        while (end < offset + Math.min(length, limit) && array[end] != 0) {
            end++;
        }
        java.io.ByteArrayOutputStream message = new java.io.ByteArrayOutputStream();
        message.writeBytes(before.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        message.write(array, offset, end - offset);
        message.writeBytes(after.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return message.toByteArray();
    }

    /** zunionInterDiffGenericCommand's reply for a numkeys below 1. */
    public static String atLeastOneInputKey(String command) {
        return "ERR at least 1 input key is needed for '" + command + "' command";
    }

    /** getRangeLongFromObjectOrReply's reply for an integer outside {@code [min, max]}. */
    public static String valueOutOfRange(long min, long max) {
        return "ERR value is out of range, value must between " + min + " and " + max;
    }
}
