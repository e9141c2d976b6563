package dev.lacewing.core.command;

import dev.lacewing.api.CommandDetails;
import dev.lacewing.api.CommandDetails.Argument;
import dev.lacewing.api.CommandDetails.BeginSearch;
import dev.lacewing.api.CommandDetails.Docs;
import dev.lacewing.api.CommandDetails.FindKeys;
import dev.lacewing.api.CommandDetails.History;
import dev.lacewing.api.CommandDetails.KeySpec;
import dev.lacewing.api.CommandSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The details Redis 7.0 declares for the built-in commands (key specs, tips, ACL categories, docs
 * and argument trees, as its {@code src/commands/*.json} hold them), read once from
 * {@code command-details.txt}. The families declare what dispatch and routing need (name, arity,
 * flags, key positions, summary) next to their code; the table joins the two by name, so each
 * fact is written once. The file's format is described at its top.
 *
 * <p>Thread rule: immutable after class initialization.
 */
public final class RedisCommandDetails {

    private static final Map<String, CommandDetails> BY_NAME = load();

    private RedisCommandDetails() {
    }

    /** The spec with its Redis details, and its subcommands' ones; unchanged when the file has none. */
    public static CommandSpec attach(CommandSpec spec) {
        List<CommandSpec> subcommands = spec.details().subcommands().stream().map(RedisCommandDetails::attach).toList();
        CommandDetails details = BY_NAME.get(spec.name());
        if (details == null) {
            return subcommands.isEmpty() ? spec : spec.withDetails(spec.details().withSubcommands(subcommands));
        }
        return spec.withDetails(details.withSubcommands(subcommands));
    }

    /** Every command and subcommand (full name) the file describes. */
    public static Set<String> names() {
        return BY_NAME.keySet();
    }

    private static Map<String, CommandDetails> load() {
        try (InputStream in = RedisCommandDetails.class.getResourceAsStream("command-details.txt")) {
            if (in == null) {
                throw new IllegalStateException("command-details.txt is missing from dev.lacewing.core");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One command's block while it is read. */
    private static final class Block {
        final List<String> acl = new ArrayList<>();
        final List<String> tips = new ArrayList<>();
        final List<KeySpec> keySpecs = new ArrayList<>();
        final List<String> docFlags = new ArrayList<>();
        final List<History> history = new ArrayList<>();
        final Map<String, String> docs = new HashMap<>();
        /** Arguments by depth: the top-level list, then the children of the latest argument at each depth. */
        final List<List<ArgumentBuilder>> levels = new ArrayList<>(List.of(new ArrayList<>()));

        CommandDetails build() {
            List<Argument> arguments = levels.get(0).stream().map(ArgumentBuilder::build).toList();
            return new CommandDetails(acl, tips, keySpecs, new Docs(docs.get("since"), docs.get("complexity"),
                docFlags, docs.get("deprecated_since"), docs.get("replaced_by"), history, arguments), List.of());
        }
    }

    private record ArgumentBuilder(String name, String type, Map<String, String> attributes, List<String> flags,
                                   List<ArgumentBuilder> children) {

        Argument build() {
            String keySpecIndex = attributes.get("key_spec_index");
            return new Argument(name, type, keySpecIndex == null ? -1 : Integer.parseInt(keySpecIndex),
                attributes.get("token"), attributes.get("summary"), attributes.get("since"),
                attributes.get("deprecated_since"), flags, children.stream().map(ArgumentBuilder::build).toList());
        }
    }

    static Map<String, CommandDetails> parse(String text) {
        Map<String, CommandDetails> parsed = new HashMap<>();
        String name = null;
        Block block = null;
        int lineNumber = 0;
        for (String line : text.split("\n", -1)) {
            lineNumber++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int indent = 0;
            while (line.charAt(indent) == ' ') {
                indent++;
            }
            List<String> words = words(line.substring(indent));
            try {
                if (words.get(0).equals("command")) {
                    if (name != null) {
                        parsed.put(name, block.build());
                    }
                    name = words.get(1);
                    block = new Block();
                } else {
                    line(block, indent / 2, words);
                }
            } catch (RuntimeException e) {
                throw new IllegalStateException("command-details.txt line " + lineNumber + ": " + e.getMessage(), e);
            }
        }
        if (name != null) {
            parsed.put(name, block.build());
        }
        return Map.copyOf(parsed);
    }

    private static void line(Block block, int depth, List<String> words) {
        String keyword = words.get(0);
        switch (keyword) {
            case "acl" -> block.acl.addAll(words.subList(1, words.size()));
            case "tip" -> block.tips.add(unquote(words.get(1)));
            case "key" -> block.keySpecs.add(keySpec(words));
            case "since", "complexity", "deprecated_since", "replaced_by" -> block.docs.put(keyword, unquote(words.get(1)));
            case "doc_flag" -> block.docFlags.add(words.get(1));
            case "history" -> block.history.add(new History(unquote(words.get(1)), unquote(words.get(2))));
            case "arg" -> {
                Map<String, String> attributes = new HashMap<>();
                List<String> flags = new ArrayList<>();
                for (String word : words.subList(3, words.size())) {
                    int equals = word.indexOf('=');
                    if (equals > 0 && word.charAt(0) != '"') {
                        attributes.put(word.substring(0, equals), unquote(word.substring(equals + 1)));
                    } else {
                        flags.add(word);
                    }
                }
                ArgumentBuilder argument = new ArgumentBuilder(unquote(words.get(1)), words.get(2), attributes, flags,
                    new ArrayList<>());
                while (block.levels.size() > depth) {
                    block.levels.remove(block.levels.size() - 1);
                }
                block.levels.get(depth - 1).add(argument);
                block.levels.add(argument.children());
            }
            default -> throw new IllegalArgumentException("unknown keyword " + keyword);
        }
    }

    /** {@code key FLAG,FLAG (index N | keyword K FROM | unknown) (range L S LIMIT | keynum I F S | unknown) [notes=...]} */
    private static KeySpec keySpec(List<String> words) {
        List<String> flags = Arrays.asList(words.get(1).split(","));
        int i = 2;
        BeginSearch begin;
        switch (words.get(i++)) {
            case "index" -> begin = BeginSearch.index(Integer.parseInt(words.get(i++)));
            case "keyword" -> {
                begin = BeginSearch.keyword(unquote(words.get(i)), Integer.parseInt(words.get(i + 1)));
                i += 2;
            }
            case "unknown" -> begin = BeginSearch.UNKNOWN;
            default -> throw new IllegalArgumentException("unknown begin_search " + words.get(i - 1));
        }
        FindKeys find;
        switch (words.get(i++)) {
            case "range" -> {
                find = FindKeys.range(Integer.parseInt(words.get(i)), Integer.parseInt(words.get(i + 1)),
                    Integer.parseInt(words.get(i + 2)));
                i += 3;
            }
            case "keynum" -> {
                find = FindKeys.keynum(Integer.parseInt(words.get(i)), Integer.parseInt(words.get(i + 1)),
                    Integer.parseInt(words.get(i + 2)));
                i += 3;
            }
            case "unknown" -> find = FindKeys.UNKNOWN;
            default -> throw new IllegalArgumentException("unknown find_keys " + words.get(i - 1));
        }
        String notes = i < words.size() && words.get(i).startsWith("notes=") ? unquote(words.get(i).substring(6)) : null;
        return new KeySpec(flags, begin, find, notes);
    }

    /** Splits on spaces outside double quotes; quotes stay in the words, {@link #unquote} removes them. */
    private static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted && c == '\\') {
                word.append(c).append(line.charAt(++i));
                continue;
            }
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ' ' && !quoted) {
                if (!word.isEmpty()) {
                    words.add(word.toString());
                    word.setLength(0);
                }
                continue;
            }
            word.append(c);
        }
        if (quoted) {
            throw new IllegalArgumentException("unbalanced quote");
        }
        if (!word.isEmpty()) {
            words.add(word.toString());
        }
        return words;
    }

    private static String unquote(String word) {
        if (!word.startsWith("\"")) {
            return word;
        }
        StringBuilder text = new StringBuilder();
        for (int i = 1; i < word.length() - 1; i++) {
            char c = word.charAt(i);
            text.append(c == '\\' ? word.charAt(++i) : c);
        }
        return text.toString();
    }
}
