package dev.lacewing.benchmarks.load;

/**
 * How a client picks key indexes, as memtier_benchmark's {@code --key-pattern} letters: R uniform
 * random, S sequential over the whole range, G gaussian around the median, P sequential over this
 * client's own slice of the range (the clients together cover it once).
 */
public enum KeyPattern {
    RANDOM('R'),
    SEQUENTIAL('S'),
    GAUSSIAN('G'),
    PARALLEL('P');

    private final char letter;

    KeyPattern(char letter) {
        this.letter = letter;
    }

    public char letter() {
        return letter;
    }

    public static KeyPattern of(char letter) {
        for (KeyPattern pattern : values()) {
            if (pattern.letter == letter) {
                return pattern;
            }
        }
        throw new IllegalArgumentException("key pattern must be R, S, G or P, not " + letter);
    }
}
