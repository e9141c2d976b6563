package dev.lacewing.core.persistence;

import dev.lacewing.api.Keyspace;
import dev.lacewing.core.config.Config;
import dev.lacewing.core.keyspace.Database;
import dev.lacewing.core.keyspace.EvictionPolicy;
import dev.lacewing.core.keyspace.MemoryPolicy;
import dev.lacewing.core.persistence.rdb.RdbFileReader;
import dev.lacewing.core.persistence.rdb.RdbFileWriter;
import dev.lacewing.core.persistence.rdb.RdbFormatException;
import dev.lacewing.core.persistence.rdb.RdbValueCodec;
import dev.lacewing.core.server.Functions;
import dev.lacewing.core.server.Scripts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The server's RDB file, {@code dir/dbfilename}: SAVE and SHUTDOWN write it (rdb.c's rdbSave),
 * start-up loads it (rdbLoad), and INFO persistence reports on both. The file holds the function
 * libraries too: each is loaded through {@link Scripts#createLibrary}, as FUNCTION RESTORE loads
 * one, so a server without the scripting plugin refuses a file that has any.
 *
 * <p>A save writes {@code temp-<pid>.rdb} in {@code dir} through {@link RdbFileWriter}, forces it
 * to disk, renames it over the file and forces the directory, as Redis 7.0 does, so a crash leaves
 * either the old file or the new one. Redis's log lines are kept, failures included.
 *
 * <p>Thread rule: {@link #save} and {@link #load} run on a thread holding the whole keyspace
 * (the engine grants one such holder at a time); the figures INFO reads are volatile.
 */
public final class Snapshots {

    private static final System.Logger LOG = System.getLogger(Snapshots.class.getName());

    private final Config config;
    private final String redisVersion;
    private final LongSupplier usedMemory;
    private final Supplier<Scripts> scripts;
    private volatile long lastSaveSeconds = System.currentTimeMillis() / 1000;
    private volatile long saves;
    private volatile long lastLoadKeysLoaded;
    private volatile long lastLoadKeysExpired;

    /**
     * {@code redisVersion} and {@code usedMemory}: the redis-ver and used-mem AUX fields;
     * {@code scripts}: the server's scripts as of the save or load, whose libraries the file holds.
     */
    public Snapshots(Config config, String redisVersion, LongSupplier usedMemory, Supplier<Scripts> scripts) {
        this.config = config;
        this.redisVersion = redisVersion;
        this.usedMemory = usedMemory;
        this.scripts = scripts;
    }

    /** LASTSAVE and rdb_last_save_time: the last successful save, or start-up, in Unix seconds. */
    public long lastSaveSeconds() {
        return lastSaveSeconds;
    }

    /** rdb_saves: saves that succeeded since start-up. */
    public long saves() {
        return saves;
    }

    public long lastLoadKeysLoaded() {
        return lastLoadKeysLoaded;
    }

    public long lastLoadKeysExpired() {
        return lastLoadKeysExpired;
    }

    /** Whether a save point is configured: SHUTDOWN and SIGTERM then save. */
    public boolean hasSavePoints() {
        return !config.value("save").isEmpty();
    }

    private Path directory() {
        return Path.of(config.value("dir"));
    }

    /**
     * rdbSave: writes every database into the file. False, with Redis's log line, when it could
     * not; the previous file is then untouched.
     */
    public boolean save(List<Keyspace> databases) {
        Path directory = directory();
        String tempName = "temp-" + ProcessHandle.current().pid() + ".rdb";
        Path temp = directory.resolve(tempName);
        Path target = directory.resolve(config.value("dbfilename"));
        FileChannel channel;
        try {
            channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Failed opening the temp RDB file " + tempName + " (in server root dir "
                + directory + ") for saving: " + reason(e));
            return false;
        }
        try (channel) {
            write(channel, databases, false);
            channel.force(true);
        } catch (IOException | UncheckedIOException e) {
            LOG.log(System.Logger.Level.WARNING, "Write error saving DB on disk: " + reason(e));
            deleteQuietly(temp);
            return false;
        }
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel directoryChannel = FileChannel.open(directory, StandardOpenOption.READ)) {
                directoryChannel.force(true);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Error moving temp DB file " + tempName + " on the final destination "
                + target.getFileName() + " (in server root dir " + directory + "): " + reason(e));
            deleteQuietly(temp);
            return false;
        }
        LOG.log(System.Logger.Level.INFO, "DB saved on disk");
        lastSaveSeconds = System.currentTimeMillis() / 1000;
        saves++;
        return true;
    }

    /**
     * Writes every database as an RDB file into {@code channel}; {@code aofBase}: the image is an
     * AOF base file, whose aof-base AUX field is 1 (rdbSaveRio's RDBFLAGS_AOF_PREAMBLE).
     */
    public void write(FileChannel channel, List<Keyspace> databases, boolean aofBase) throws IOException {
        RdbFileWriter writer = new RdbFileWriter(channel, config.flag("rdbcompression"), config.flag("rdbchecksum"));
        writer.header();
        writer.aux("redis-ver", redisVersion);
        writer.aux("redis-bits", "64");
        writer.aux("ctime", Long.toString(System.currentTimeMillis() / 1000));
        writer.aux("used-mem", Long.toString(usedMemory.getAsLong()));
        writer.aux("aof-base", aofBase ? "1" : "0");
        for (Functions.Library library : scripts.get().functions().libraries()) {
            writer.function(library.code());
        }
        MemoryPolicy memory = MemoryPolicy.snapshot(config);
        // rdbSaveKeyValuePair writes IDLE under an LRU policy and FREQ under an LFU one, nothing otherwise.
        EvictionPolicy.Victim victim = memory.policy().victim();
        long now = System.currentTimeMillis();
        IOException[] failure = new IOException[1];
        for (int index = 0; index < databases.size(); index++) {
            Database database = (Database) databases.get(index);
            if (database.size() == 0) {
                continue;
            }
            writer.database(index, database.size(), database.expiringSize());
            database.forEachLive((key, value, expireAt, access) -> {
                if (failure[0] != null) {
                    return;
                }
                long idleSeconds = victim == EvictionPolicy.Victim.LRU ? memory.idleMillis(access, now) / 1000 : -1;
                int frequency = victim == EvictionPolicy.Victim.LFU ? memory.frequency(access, now) : -1;
                try {
                    writer.entry(key, value, expireAt, idleSeconds, frequency);
                } catch (IOException e) {
                    failure[0] = e;
                }
            });
            if (failure[0] != null) {
                throw failure[0];
            }
        }
        writer.finish();
    }

    /**
     * rdbLoad at start-up, as a master: keys whose time has passed are dropped and counted. A
     * missing file is an empty dataset. Refuses a file it cannot read whole with
     * IllegalStateException carrying Redis's log line; keys read before the failure stay loaded,
     * the caller stopping the server.
     */
    public void load(List<Keyspace> databases) {
        load(databases, directory().resolve(config.value("dbfilename")), true);
    }

    /**
     * Loads the RDB file {@code file}; {@code missingIsEmpty}: a missing file is an empty dataset,
     * otherwise it is refused as a damaged one. Keys whose time has passed are dropped; returns the
     * length of the RDB image read, less than the file's where an AOF's RESP tail follows it.
     */
    public long load(List<Keyspace> databases, Path file, boolean missingIsEmpty) {
        long started = System.nanoTime();
        long now = System.currentTimeMillis();
        long[] loaded = new long[2];
        long length;
        MemoryPolicy memory = MemoryPolicy.snapshot(config);
        RdbValueCodec.Encodings encodings = RdbValueCodec.Encodings.of(config);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            length = RdbFileReader.read(channel, channel.size(), encodings, config.flag("rdbchecksum"),
                new RdbFileReader.Loader() {
                    @Override
                    public int databases() {
                        return databases.size();
                    }

                    @Override
                    public void entry(int database, byte[] key, Object value, long expireAt, long idleSeconds,
                                      int frequency) {
                        if (expireAt != -1 && expireAt < now) {
                            loaded[1]++;
                            return;
                        }
                        Keyspace keyspace = databases.get(database);
                        keyspace.put(key, 0, key.length, value, expireAt == -1 ? Keyspace.NO_EXPIRY : expireAt);
                        int access = memory.restored(frequency, idleSeconds, now);
                        if (access >= 0) {
                            keyspace.setAccess(key, 0, key.length, access);
                        }
                        loaded[0]++;
                    }

                    @Override
                    public String library(byte[] code) {
                        Scripts server = scripts.get();
                        String error = server.createLibrary(code, false, 0, null);
                        if (error != null && !server.available()) {
                            return error + " (" + Scripts.NOT_AVAILABLE.substring("ERR ".length()) + ")";
                        }
                        return error;
                    }
                });
        } catch (NoSuchFileException e) {
            if (missingIsEmpty) {
                return 0;
            }
            throw new IllegalStateException("Fatal error loading the DB: No such file or directory. Exiting.", e);
        } catch (IOException | UncheckedIOException e) {
            throw new IllegalStateException("Fatal error loading the DB: " + reason(e) + ". Exiting.", e);
        } catch (RdbFormatException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        lastLoadKeysLoaded = loaded[0];
        lastLoadKeysExpired = loaded[1];
        LOG.log(System.Logger.Level.INFO, "Done loading RDB, keys loaded: " + loaded[0] + ", keys expired: "
            + loaded[1] + ".");
        LOG.log(System.Logger.Level.INFO, String.format(Locale.ROOT, "DB loaded from disk: %.3f seconds",
            (System.nanoTime() - started) / 1e9));
        return length;
    }

    /**
     * prepareForShutdown's save: when a save point is configured and not {@code noSave}, or
     * {@code save}. False, with Redis's log lines, when the save failed and not {@code force}:
     * the server must then go on running.
     */
    public boolean saveBeforeShutdown(List<Keyspace> databases, boolean noSave, boolean save, boolean force) {
        if (!(hasSavePoints() && !noSave || save)) {
            return true;
        }
        LOG.log(System.Logger.Level.INFO, "Saving the final RDB snapshot before exiting.");
        if (save(databases)) {
            return true;
        }
        if (force) {
            LOG.log(System.Logger.Level.WARNING, "Error trying to save the DB. Exit anyway.");
            return true;
        }
        LOG.log(System.Logger.Level.WARNING, "Error trying to save the DB, can't exit.");
        LOG.log(System.Logger.Level.WARNING,
            "Errors trying to shut down the server. Check the logs for more information.");
        return false;
    }

    /** A background save succeeded ({@link BackgroundSave}): LASTSAVE and rdb_saves count it. */
    void recordSave() {
        lastSaveSeconds = System.currentTimeMillis() / 1000;
        saves++;
    }

    /** strerror's words where the JDK's exception has them. */
    static String reason(Exception e) {
        Throwable cause = e instanceof UncheckedIOException unchecked ? unchecked.getCause() : e;
        if (cause instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (cause instanceof java.nio.file.AccessDeniedException) {
            return "Permission denied";
        }
        return String.valueOf(cause.getMessage());
    }

    public static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "could not delete " + path + ": " + e.getMessage());
        }
    }
}
