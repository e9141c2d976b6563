package dev.lacewing.it.reference.differential;

import java.util.List;

/**
 * The random calls of one command family (strings, keys, hashes...): which commands it covers
 * and, for each, arguments with the family's edge cases. Implementations hold no state; all
 * randomness comes from the {@link Draw}.
 */
interface CommandGenerator {

    /** The family's name, as {@link Families} lists it. */
    String family();

    /** The commands this generator sends, upper case. */
    List<String> commands();

    /** One call of one of {@link #commands()}. */
    Call next(Draw draw);

    /** How often the family is drawn relative to the others: by default its number of commands. */
    default int weight() {
        return commands().size();
    }

    /** A list of words: the command, then each argument (a String, byte[] or a List of them). */
    static Object[] words(Object... parts) {
        java.util.List<Object> words = new java.util.ArrayList<>();
        for (Object part : parts) {
            if (part instanceof List<?> list) {
                words.addAll(list);
            } else {
                words.add(part);
            }
        }
        return words.toArray();
    }
}
