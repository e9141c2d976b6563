package dev.lacewing.core.persistence.rdb;

/**
 * Serialized data that is not a valid RDB encoding: truncated, a length past the data, a
 * duplicate member, an unknown type. Carries no stack trace, as a corrupt payload is an ordinary
 * input error (RESTORE replies "Bad data format").
 */
public final class RdbFormatException extends RuntimeException {

    public RdbFormatException(String message) {
        super(message, null, false, false);
    }
}
