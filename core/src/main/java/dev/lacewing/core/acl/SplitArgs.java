package dev.lacewing.core.acl;

import java.util.ArrayList;
import java.util.List;

/** Redis's sdssplitargs as the ACL code uses it: blanks separate, "double" and 'single' quotes group. */
final class SplitArgs {

    private SplitArgs() {
    }

    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        char quote = 0;
        boolean inWord = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < line.length()) {
                    word.append(line.charAt(++i));
                } else {
                    word.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
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
