package dev.lacewing.benchmarks.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The load tool's command line, with memtier_benchmark's option names, defaults and meanings
 * (see {@link #USAGE}). Long options take {@code --name=value} or {@code --name value}; short
 * ones {@code -t 4} or {@code -t4}. Immutable once parsed.
 */
public final class LoadOptions {

    public static final String USAGE = """
        Usage: lacewing-benchmark [options]
        A memtier_benchmark-style load generator for Redis-compatible servers (RESP2).

        Connection and general options:
          -s, --server=ADDR              server address (default: localhost)
          -p, --port=PORT                server port (default: 6379)
          -t, --threads=NUMBER           number of threads, one event loop each (default: 4)
          -c, --clients=NUMBER           connections per thread (default: 50)
          -a, --authenticate=CREDENTIALS AUTH with PASSWORD or USER:PASSWORD on every connection
              --select-db=DB             SELECT this database on every connection (default: 0)
              --cluster-mode             the server is a Redis Cluster node: read CLUSTER SLOTS,
                                         connect each client to every master, and send each key
                                         to the master of its slot
          -n, --requests=NUMBER          requests per client (default: 10000); 'allkeys' covers the
                                         key range (divided among the clients with --key-pattern=P:P)
              --test-time=SECS           run for this long instead of a number of requests
              --pipeline=NUMBER          requests in flight per connection (default: 1)
              --rate-limiting=NUMBER     most requests per second per connection (default: unlimited)
              --distinct-client-seed     a different random seed for each client
              --randomize                seed from the clock (default: a constant seed)
              --json-out-file=FILE       write the results as JSON
              --hide-histogram           do not print the latency distribution
              --print-percentiles=LIST   percentiles to report (default: 50,99,99.9)
          -h, --help                     this text

        Object options:
          -d, --data-size=SIZE           value size in bytes (default: 32)
              --data-size-range=MIN-MAX  value sizes between MIN and MAX
              --data-size-pattern=R|S    with --data-size-range: R random sizes, S sizes spread
                                         evenly over the key range (default: R)
          -R, --random-data              random values instead of 'x' bytes

        Key options:
              --key-prefix=PREFIX        key name prefix (default: memtier-)
              --key-minimum=NUMBER       lowest key index (default: 0)
              --key-maximum=NUMBER       highest key index (default: 10000000)
              --key-pattern=SET:GET      R random, S sequential, G gaussian, P parallel (each client
                                         sequential over its own slice) (default: R:R)
              --key-stddev=NUMBER        G's standard deviation (default: key range / 6)
              --key-median=NUMBER        G's median (default: middle of the key range)
              --ratio=SET:GET            SET to GET ratio (default: 1:10)

        Arbitrary commands (replace the SET/GET workload):
              --command=COMMAND          e.g. "LPUSH __key__ __data__"; __key__ is a key name and
                                         __data__ a value, as above; repeat for several commands
              --command-ratio=NUMBER     times the last --command runs per cycle (default: 1)
              --command-key-pattern=R|S|G|P  key pattern of the last --command (default: R)
        """;

    private static final Set<String> VALUED = Set.of("server", "port", "threads", "clients", "requests",
        "authenticate", "select-db",
        "test-time", "pipeline", "rate-limiting", "json-out-file", "print-percentiles", "data-size", "data-size-range",
        "data-size-pattern", "key-prefix", "key-minimum", "key-maximum", "key-pattern", "key-stddev", "key-median",
        "ratio", "command", "command-ratio", "command-key-pattern");

    /** One command of the workload: its words, how often it runs per cycle, its key pattern. */
    public record Command(List<String> words, int ratio, KeyPattern keyPattern) {
        public Command {
            words = List.copyOf(words);
        }
    }

    public String server = "localhost";
    public int port = 6379;
    public int threads = 4;
    public int clients = 50;
    public long requests = 10_000;
    public int testTimeSeconds;
    public int pipeline = 1;
    public int rateLimit;
    public boolean distinctClientSeed;
    public boolean randomize;
    /** PASSWORD or USER:PASSWORD, or null. */
    public String authenticate;
    public int selectDb;
    public boolean clusterMode;
    public String jsonOutFile;
    public boolean hideHistogram;
    public List<Double> percentiles = List.of(50.0, 99.0, 99.9);
    public int dataSize = 32;
    public int dataSizeMinimum;
    public int dataSizeMaximum;
    public char dataSizePattern = 'R';
    public boolean randomData;
    public String keyPrefix = "memtier-";
    public long keyMinimum;
    public long keyMaximum = 10_000_000;
    public KeyPattern setKeyPattern = KeyPattern.RANDOM;
    public KeyPattern getKeyPattern = KeyPattern.RANDOM;
    public double keyStddev;
    public double keyMedian;
    public int setRatio = 1;
    public int getRatio = 10;
    public List<Command> commands = List.of();
    public boolean help;

    private LoadOptions() {
    }

    /** Parses a command line; an unknown option or a bad value is an IllegalArgumentException. */
    public static LoadOptions parse(String... args) {
        LoadOptions options = new LoadOptions();
        List<Command> commands = new ArrayList<>();
        boolean allKeys = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name;
            String inlineValue = null;
            if (arg.startsWith("--")) {
                int equals = arg.indexOf('=');
                name = equals < 0 ? arg.substring(2) : arg.substring(2, equals);
                inlineValue = equals < 0 ? null : arg.substring(equals + 1);
            } else if (arg.startsWith("-") && arg.length() >= 2) {
                name = shortName(arg.charAt(1));
                if (arg.length() > 2) {
                    inlineValue = arg.substring(arg.charAt(2) == '=' ? 3 : 2);
                }
            } else {
                throw new IllegalArgumentException("unexpected argument: " + arg);
            }
            if (isFlag(name)) {
                if (inlineValue != null) {
                    throw new IllegalArgumentException("--" + name + " takes no value");
                }
                options.setFlag(name);
                continue;
            }
            if (!VALUED.contains(name)) {
                throw new IllegalArgumentException("unknown option --" + name);
            }
            String value = inlineValue;
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("--" + name + " needs a value");
                }
                value = args[++i];
            }
            switch (name) {
                case "server" -> options.server = value;
                case "port" -> options.port = intIn(name, value, 1, 65535);
                case "threads" -> options.threads = intIn(name, value, 1, 1024);
                case "clients" -> options.clients = intIn(name, value, 1, 100_000);
                case "requests" -> {
                    allKeys = value.equals("allkeys");
                    options.requests = allKeys ? 0 : longIn(name, value, 1, Long.MAX_VALUE);
                }
                case "authenticate" -> options.authenticate = value;
                case "select-db" -> options.selectDb = intIn(name, value, 0, Integer.MAX_VALUE);
                case "test-time" -> options.testTimeSeconds = intIn(name, value, 1, Integer.MAX_VALUE);
                case "pipeline" -> options.pipeline = intIn(name, value, 1, 1_000_000);
                case "rate-limiting" -> options.rateLimit = intIn(name, value, 1, Integer.MAX_VALUE);
                case "json-out-file" -> options.jsonOutFile = value;
                case "print-percentiles" -> options.percentiles = percentiles(value);
                case "data-size" -> options.dataSize = intIn(name, value, 1, 512 << 20);
                case "data-size-range" -> options.dataSizeRange(value);
                case "data-size-pattern" -> {
                    if (!value.equals("R") && !value.equals("S")) {
                        throw new IllegalArgumentException("--data-size-pattern must be R or S");
                    }
                    options.dataSizePattern = value.charAt(0);
                }
                case "key-prefix" -> options.keyPrefix = value;
                case "key-minimum" -> options.keyMinimum = longIn(name, value, 0, Long.MAX_VALUE - 1);
                case "key-maximum" -> options.keyMaximum = longIn(name, value, 0, Long.MAX_VALUE - 1);
                case "key-pattern" -> {
                    KeyPattern[] pair = keyPatternPair(value);
                    options.setKeyPattern = pair[0];
                    options.getKeyPattern = pair[1];
                }
                case "key-stddev" -> options.keyStddev = positiveDouble(name, value);
                case "key-median" -> options.keyMedian = positiveDouble(name, value);
                case "ratio" -> {
                    int[] ratio = ratio(value);
                    options.setRatio = ratio[0];
                    options.getRatio = ratio[1];
                }
                case "command" -> commands.add(new Command(CommandTemplate.words(value), 1, KeyPattern.RANDOM));
                case "command-ratio" -> {
                    Command last = lastCommand(commands, name);
                    commands.set(commands.size() - 1,
                        new Command(last.words(), intIn(name, value, 1, Integer.MAX_VALUE), last.keyPattern()));
                }
                case "command-key-pattern" -> {
                    Command last = lastCommand(commands, name);
                    if (value.length() != 1) {
                        throw new IllegalArgumentException("--command-key-pattern must be R, S, G or P");
                    }
                    commands.set(commands.size() - 1,
                        new Command(last.words(), last.ratio(), KeyPattern.of(value.charAt(0))));
                }
                default -> throw new AssertionError(name);
            }
        }
        options.commands = List.copyOf(commands);
        options.validate(allKeys);
        return options;
    }

    private static String shortName(char letter) {
        return switch (letter) {
            case 's' -> "server";
            case 'p' -> "port";
            case 't' -> "threads";
            case 'c' -> "clients";
            case 'n' -> "requests";
            case 'a' -> "authenticate";
            case 'd' -> "data-size";
            case 'R' -> "random-data";
            case 'h' -> "help";
            default -> throw new IllegalArgumentException("unknown option -" + letter);
        };
    }

    private static boolean isFlag(String name) {
        return switch (name) {
            case "random-data", "hide-histogram", "distinct-client-seed", "randomize", "cluster-mode", "help" -> true;
            default -> false;
        };
    }

    private void setFlag(String name) {
        switch (name) {
            case "random-data" -> randomData = true;
            case "hide-histogram" -> hideHistogram = true;
            case "distinct-client-seed" -> distinctClientSeed = true;
            case "randomize" -> randomize = true;
            case "cluster-mode" -> clusterMode = true;
            default -> help = true;
        }
    }

    private void validate(boolean allKeys) {
        if (keyMaximum < keyMinimum) {
            throw new IllegalArgumentException("--key-maximum must not be below --key-minimum");
        }
        if (clusterMode && selectDb != 0) {
            throw new IllegalArgumentException("--select-db cannot be used with --cluster-mode: a cluster has database 0 only");
        }
        if (commands.isEmpty() && setRatio == 0 && getRatio == 0) {
            throw new IllegalArgumentException("--ratio must not be 0:0");
        }
        if (allKeys) {
            requests = keyMaximum - keyMinimum;
            if (setKeyPattern == KeyPattern.PARALLEL && getKeyPattern == KeyPattern.PARALLEL) {
                requests = requests / ((long) clients * threads) + 1;
            }
            requests = Math.max(1, requests);
        }
    }

    /**
     * What each connection sends before the run starts: AUTH and SELECT as asked, or nothing.
     * Each must be answered without an error.
     */
    public List<List<String>> handshake() {
        List<List<String>> commands = new ArrayList<>();
        if (authenticate != null) {
            commands.add(ClusterTopology.authWords(authenticate));
        }
        if (selectDb != 0) {
            commands.add(List.of("SELECT", Integer.toString(selectDb)));
        }
        return commands;
    }

    /** Every client of every thread, numbered 0 .. totalClients() - 1. */
    public int totalClients() {
        return threads * clients;
    }

    /** The largest value this run sends. */
    public int maximumDataSize() {
        return dataSizeMaximum > 0 ? dataSizeMaximum : dataSize;
    }

    /**
     * The workload as commands: the --command list, or SET and GET by --ratio and --key-pattern.
     * A command with ratio 0 never runs and is left out.
     */
    public List<Command> workload() {
        if (!commands.isEmpty()) {
            return commands;
        }
        List<Command> workload = new ArrayList<>();
        if (setRatio > 0) {
            workload.add(new Command(List.of("SET", CommandTemplate.KEY, CommandTemplate.DATA), setRatio, setKeyPattern));
        }
        if (getRatio > 0) {
            workload.add(new Command(List.of("GET", CommandTemplate.KEY), getRatio, getKeyPattern));
        }
        return workload;
    }

    private void dataSizeRange(String value) {
        int dash = value.indexOf('-');
        if (dash <= 0) {
            throw new IllegalArgumentException("--data-size-range must be MIN-MAX");
        }
        dataSizeMinimum = intIn("data-size-range", value.substring(0, dash), 1, 512 << 20);
        dataSizeMaximum = intIn("data-size-range", value.substring(dash + 1), dataSizeMinimum, 512 << 20);
    }

    private static Command lastCommand(List<Command> commands, String name) {
        if (commands.isEmpty()) {
            throw new IllegalArgumentException("--" + name + " must follow a --command");
        }
        return commands.get(commands.size() - 1);
    }

    static KeyPattern[] keyPatternPair(String value) {
        if (value.length() != 3 || value.charAt(1) != ':') {
            throw new IllegalArgumentException("--key-pattern must be SET:GET, e.g. R:R or G:G, not " + value);
        }
        return new KeyPattern[] {KeyPattern.of(value.charAt(0)), KeyPattern.of(value.charAt(2))};
    }

    static int[] ratio(String value) {
        int colon = value.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("--ratio must be SET:GET, e.g. 1:10, not " + value);
        }
        return new int[] {intIn("ratio", value.substring(0, colon), 0, Integer.MAX_VALUE),
            intIn("ratio", value.substring(colon + 1), 0, Integer.MAX_VALUE)};
    }

    private static List<Double> percentiles(String value) {
        List<Double> list = new ArrayList<>();
        for (String part : value.split(",")) {
            double percentile = positiveDouble("print-percentiles", part.trim());
            if (percentile > 100) {
                throw new IllegalArgumentException("--print-percentiles: " + part + " is above 100");
            }
            list.add(percentile);
        }
        return List.copyOf(list);
    }

    private static int intIn(String name, String value, int minimum, int maximum) {
        return (int) longIn(name, value, minimum, maximum);
    }

    private static long longIn(String name, String value, long minimum, long maximum) {
        long number;
        try {
            number = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a number, not " + value);
        }
        if (number < minimum || number > maximum) {
            throw new IllegalArgumentException("--" + name + " must be in [" + minimum + ", " + maximum + "], not " + value);
        }
        return number;
    }

    private static double positiveDouble(String name, String value) {
        try {
            double number = Double.parseDouble(value.trim());
            if (number > 0 && Double.isFinite(number)) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--" + name + " must be a positive number, not " + value);
    }
}
