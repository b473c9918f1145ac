package org.ssbjca.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Samples the 1-minute load average every 5 s while the benchmark runs. */
final class LoadSampler {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "load-sampler");
        t.setDaemon(true);
        return t;
    });
    private String start = "unknown";
    private double min = Double.MAX_VALUE;
    private double max;
    private double sum;
    private int samples;

    void start() {
        start = raw();
        timer.scheduleAtFixedRate(this::sample, 0, 5, TimeUnit.SECONDS);
    }

    void stop() {
        timer.shutdownNow();
    }

    String startText() {
        return start + " (1, 5, 15 min)";
    }

    synchronized String summary() {
        if (samples == 0) {
            return "not sampled";
        }
        return String.format(Locale.ROOT, "1-min load average %.2f min, %.2f mean, %.2f max (%d samples, every 5 s);"
                + " the benchmark's own processes count in it", min, sum / samples, max, samples);
    }

    private synchronized void sample() {
        try {
            double one = Double.parseDouble(raw().split(" ")[0]);
            min = Math.min(min, one);
            max = Math.max(max, one);
            sum += one;
            samples++;
        } catch (RuntimeException e) {
            // a missed sample
        }
    }

    private static String raw() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }
}
