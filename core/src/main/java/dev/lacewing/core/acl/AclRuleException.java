package dev.lacewing.core.acl;

/** A rule ACL SETUSER, a {@code user} directive or an ACL file cannot apply; the message is Redis's reason. */
public final class AclRuleException extends RuntimeException {

    static final String UNKNOWN_COMMAND = "Unknown command or category name in ACL";
    static final String SYNTAX = "Syntax error";
    static final String KEYS_AFTER_ALL = "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid "
        + "and does not have any effect. Try 'resetkeys' to start with an empty list of patterns";
    static final String CHANNELS_AFTER_ALL = "Adding a pattern after the * pattern (or the 'allchannels' flag) is not "
        + "valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels";
    static final String NO_SUCH_PASSWORD = "The password you are trying to remove from the user does not exist";
    static final String BAD_HASH = "The password hash must be exactly 64 characters and contain only lowercase "
        + "hexadecimal characters";
    static final String FIRST_ARG_OF_SUBCOMMAND = "Allowing first-arg of a subcommand is not supported";

    public AclRuleException(String reason) {
        super(reason, null, false, false);
    }

    /** Whether it names an unknown command or category (a file load lists each of those). */
    boolean unknownName() {
        return UNKNOWN_COMMAND.equals(getMessage());
    }
}
