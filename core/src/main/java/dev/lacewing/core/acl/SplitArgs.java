package dev.lacewing.core.acl;

import dev.lacewing.core.config.ConfigSource;
import java.util.ArrayList;
import java.util.List;

/** Redis's sdssplitargs as the ACL code uses it: blanks separate, "double" and 'single' quotes group. */
final class SplitArgs {

    private SplitArgs() {
    }

    /** The words of {@code line}; an open quote ends the last word, as the ACL code has always read it. */
    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        ConfigSource.splitArgs(line, words);
        return words;
    }

    /**
     * Redis's ACLMergeSelectorArguments: a selector spread over several arguments, "(~a*" "+get)",
     * becomes one "(~a* +get)". Returns null when a parenthesis is left open, with
     * {@code unmatched[0]} set to the argument that opened it.
     */
    static List<String> mergeSelectors(List<String> ops, String[] unmatched) {
        List<String> merged = new ArrayList<>();
        StringBuilder selector = null;
        String opener = null;
        for (String op : ops) {
            if (selector == null && op.startsWith("(") && !op.endsWith(")")) {
                selector = new StringBuilder(op);
                opener = op;
                continue;
            }
            if (selector != null) {
                selector.append(' ').append(op);
                if (op.endsWith(")")) {
                    merged.add(selector.toString());
                    selector = null;
                }
                continue;
            }
            merged.add(op);
        }
        if (selector != null) {
            unmatched[0] = opener;
            return null;
        }
        return merged;
    }
}
