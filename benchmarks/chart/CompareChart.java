import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;

/**
 * Draws benchmarks/compare.sh's results as a PNG: two panels of grouped bars, throughput (ops/s)
 * and p99 latency (ms), one group per workload, one bar per server. Input: the tab-separated
 * file compare.sh writes (workload, server, ops/s, p99 ms, cpu s/M ops). Pure JDK (java.desktop,
 * headless), so it runs wherever the build runs.
 *
 * <p>Usage: {@code java benchmarks/chart/CompareChart.java results.tsv out.png "title"}
 */
public final class CompareChart {

    private static final int WIDTH = 1200;
    private static final int PANEL_HEIGHT = 330;
    private static final Color[] COLORS = {
        new Color(0xC0392B), new Color(0x2471A3), new Color(0x229954), new Color(0x7D3C98), new Color(0xB9770E)};

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        List<String[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                rows.add(line.split("\t"));
            }
        }
        Set<String> workloads = new LinkedHashSet<>();
        Set<String> servers = new LinkedHashSet<>();
        Map<String, double[]> values = new LinkedHashMap<>();
        for (String[] row : rows) {
            workloads.add(row[0]);
            servers.add(row[1]);
            values.put(row[0] + "\u0000" + row[1], new double[] {Double.parseDouble(row[2]), Double.parseDouble(row[3])});
        }
        String title = args.length > 2 ? args[2] : "compare.sh";
        BufferedImage image = new BufferedImage(WIDTH, 2 * PANEL_HEIGHT + 110, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        g.drawString(title, 20, 30);
        legend(g, new ArrayList<>(servers), 20, 55);
        panel(g, 80, "throughput (ops/s, higher is better)", workloads, servers, values, 0);
        panel(g, 80 + PANEL_HEIGHT + 20, "p99 latency (ms, lower is better)", workloads, servers, values, 1);
        g.dispose();
        ImageIO.write(image, "png", new File(args[1]));
    }

    private static void legend(Graphics2D g, List<String> servers, int x, int y) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        for (int i = 0; i < servers.size(); i++) {
            g.setColor(COLORS[i % COLORS.length]);
            g.fillRect(x, y - 11, 14, 14);
            g.setColor(Color.BLACK);
            g.drawString(servers.get(i), x + 20, y + 1);
            x += 30 + g.getFontMetrics().stringWidth(servers.get(i));
        }
    }

    private static void panel(Graphics2D g, int top, String label, Set<String> workloads, Set<String> servers,
                              Map<String, double[]> values, int index) {
        int left = 90;
        int right = WIDTH - 20;
        int bottom = top + PANEL_HEIGHT - 40;
        int plotTop = top + 25;
        double max = 0;
        for (double[] v : values.values()) {
            max = Math.max(max, v[index]);
        }
        double scale = niceCeiling(max);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.setColor(Color.BLACK);
        g.drawString(label, left, top + 12);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        FontMetrics metrics = g.getFontMetrics();
        for (int tick = 0; tick <= 4; tick++) {
            double value = scale * tick / 4;
            int y = bottom - (int) Math.round((bottom - plotTop) * tick / 4.0);
            g.setColor(new Color(0xDDDDDD));
            g.drawLine(left, y, right, y);
            g.setColor(Color.DARK_GRAY);
            String text = format(value);
            g.drawString(text, left - 8 - metrics.stringWidth(text), y + 4);
        }
        int groups = workloads.size();
        int groupWidth = (right - left) / Math.max(1, groups);
        int barWidth = Math.max(4, (groupWidth - 30) / Math.max(1, servers.size()));
        int group = 0;
        for (String workload : workloads) {
            int x = left + group * groupWidth + 15;
            int serverIndex = 0;
            for (String server : servers) {
                double[] v = values.get(workload + "\u0000" + server);
                if (v != null) {
                    int height = (int) Math.round((bottom - plotTop) * v[index] / scale);
                    g.setColor(COLORS[serverIndex % COLORS.length]);
                    g.fillRect(x + serverIndex * barWidth, bottom - height, barWidth - 2, height);
                }
                serverIndex++;
            }
            g.setColor(Color.BLACK);
            g.drawString(workload, left + group * groupWidth + (groupWidth - metrics.stringWidth(workload)) / 2,
                bottom + 16);
            group++;
        }
        g.setStroke(new BasicStroke(1));
        g.drawLine(left, bottom, right, bottom);
    }

    private static double niceCeiling(double max) {
        if (max <= 0) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(max)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= max) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String format(double value) {
        if (value >= 1_000_000) {
            return String.format(Locale.ROOT, "%.1fM", value / 1_000_000);
        }
        if (value >= 1_000) {
            return String.format(Locale.ROOT, "%.0fk", value / 1_000);
        }
        return String.format(Locale.ROOT, value < 10 ? "%.1f" : "%.0f", value);
    }
}
