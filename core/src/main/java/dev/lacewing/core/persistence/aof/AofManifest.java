package dev.lacewing.core.persistence.aof;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Redis 7.0's AOF manifest (aof.c's aofInfo and aofLoadManifestFromFile): one line per file,
 * {@code file <name> seq <n> type <b|h|i>}, the base first, then the incr files in order. Keys
 * may come in any order and unknown keys are skipped, as Redis reads them; Redis writes exactly
 * the three keys above, and so does this class.
 *
 * <p>Immutable; {@link #write} replaces the file atomically (temp file, fsync, rename, fsync of
 * the directory), as aof.c's persistAofManifest does.
 */
record AofManifest(AofFile base, List<AofFile> incrs) {

    /** One file of the AOF: its name in the AOF directory, its sequence and its type. */
    record AofFile(String name, long seq, char type) {
        String line() {
            return "file " + name + " seq " + seq + " type " + type + "\n";
        }
    }

    static final String BAD_FORMAT = "Invalid AOF manifest file format";

    long baseSeq() {
        return base == null ? 0 : base.seq();
    }

    long lastIncrSeq() {
        return incrs.isEmpty() ? 0 : incrs.get(incrs.size() - 1).seq();
    }

    String format() {
        StringBuilder text = new StringBuilder();
        if (base != null) {
            text.append(base.line());
        }
        for (AofFile incr : incrs) {
            text.append(incr.line());
        }
        return text.toString();
    }

    /** aofLoadManifestFromFile; IllegalStateException with Redis's reason for a malformed one. */
    static AofManifest parse(String text) {
        AofFile base = null;
        List<AofFile> incrs = new ArrayList<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] words = line.split("\\s+");
            if (words.length % 2 != 0) {
                throw new IllegalStateException(BAD_FORMAT);
            }
            String name = null;
            long seq = -1;
            char type = 0;
            for (int i = 0; i < words.length; i += 2) {
                switch (words[i]) {
                    case "file" -> name = words[i + 1];
                    case "seq" -> {
                        try {
                            seq = Long.parseLong(words[i + 1]);
                        } catch (NumberFormatException e) {
                            throw new IllegalStateException(BAD_FORMAT);
                        }
                    }
                    case "type" -> type = words[i + 1].length() == 1 ? words[i + 1].charAt(0) : '?';
                    default -> {
                    }
                }
            }
            if (name == null || seq < 0 || type == 0) {
                throw new IllegalStateException("Invalid AOF manifest file format: mismatched AOF info");
            }
            AofFile file = new AofFile(name, seq, type);
            switch (type) {
                case 'b' -> {
                    if (base != null) {
                        throw new IllegalStateException("Found duplicate base file information");
                    }
                    base = file;
                }
                case 'i' -> {
                    if (!incrs.isEmpty() && seq <= incrs.get(incrs.size() - 1).seq()) {
                        throw new IllegalStateException("Found a non-monotonic sequence number");
                    }
                    incrs.add(file);
                }
                case 'h' -> {
                }
                default -> throw new IllegalStateException("Unknown AOF file type");
            }
        }
        return new AofManifest(base, List.copyOf(incrs));
    }

    static AofManifest read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8));
    }

    /** Writes {@code temp-<name>}, forces it, renames it over {@code name} and forces the directory. */
    void write(Path directory, String name) throws IOException {
        Path temp = directory.resolve("temp-" + name);
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer bytes = ByteBuffer.wrap(format().getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        }
        Files.move(temp, directory.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory(directory);
    }

    static void forceDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
