package org.ssbjca.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where a process's threads of one kind spend their CPU, from /proc/PID/task: user mode against the kernel, and how
 * often they give up the core (voluntary context switches: a socket read that waits, a lock, a park) or lose it
 * (involuntary ones: preempted). Threads are picked by the start of their name as Linux keeps it (the first 15
 * characters of the Java thread's name). Only threads present in both readings count: a reading is taken while the
 * drain runs, not at its end, when the in-WildFly loop's threads have already ended.
 */
final class TaskTimes {

    /** Linux's {@code comm}: the first 15 characters of a thread's name. */
    private static final int COMM_LENGTH = 15;

    /** By thread id: {user ticks, system ticks, voluntary switches, involuntary switches}. */
    private final Map<String, long[]> byThread;

    private TaskTimes(Map<String, long[]> byThread) {
        this.byThread = byThread;
    }

    /**
     * @param pid the process
     * @param prefix the start of the threads' Java names
     * @return the threads' readings now; none when /proc cannot be read
     */
    static TaskTimes read(long pid, String prefix) {
        String comm = prefix.length() > COMM_LENGTH ? prefix.substring(0, COMM_LENGTH) : prefix;
        Map<String, long[]> threads = new HashMap<>();
        Path tasks = Path.of("/proc/" + pid + "/task");
        List<Path> ids;
        try (Stream<Path> list = Files.list(tasks)) {
            ids = list.toList();
        } catch (IOException e) {
            return new TaskTimes(Map.of());
        }
        for (Path task : ids) {
            try {
                String stat = Files.readString(task.resolve("stat"));
                if (!CpuMeter.comm(stat).startsWith(comm)) {
                    continue;
                }
                String[] f = CpuMeter.fields(stat);
                long[] t = {Long.parseLong(f[11]), Long.parseLong(f[12]), 0, 0};
                for (String line : Files.readAllLines(task.resolve("status"))) {
                    if (line.startsWith("voluntary_ctxt_switches:")) {
                        t[2] = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                        t[3] = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    }
                }
                threads.put(task.getFileName().toString(), t);
            } catch (IOException | RuntimeException gone) {
                // the thread ended meanwhile
            }
        }
        return new TaskTimes(threads);
    }

    /**
     * What the threads did between two readings, over the messages committed meanwhile.
     *
     * @param userTicks CPU in user mode, in ticks of 10 ms
     * @param systemTicks CPU in the kernel, in ticks of 10 ms
     * @param voluntary voluntary context switches
     * @param involuntary involuntary context switches
     * @param threads the threads that ran
     * @param messages the messages committed between the readings
     */
    record Span(long userTicks, long systemTicks, long voluntary, long involuntary, long threads, long messages) {

        /** Nothing read: every figure "not measured". */
        static final Span NONE = new Span(0, 0, 0, 0, 0, 0);

        private static final double MICROS_PER_TICK = 1e4;

        /** @return "user / kernel µs" per message, or "not measured" */
        String cpuPerMessage() {
            return messages <= 0 ? "not measured" : String.format(java.util.Locale.ROOT, "%.0f / %.0f µs",
                    userTicks * MICROS_PER_TICK / messages, systemTicks * MICROS_PER_TICK / messages);
        }

        /** @return "voluntary / involuntary" switches per message, or "not measured" */
        String switchesPerMessage() {
            return messages <= 0 ? "not measured" : String.format(java.util.Locale.ROOT, "%.2f / %.2f",
                    voluntary / (double) messages, involuntary / (double) messages);
        }
    }

    /**
     * @param earlier a reading of the same threads taken before this one
     * @param messages the messages committed between the two readings
     * @return what the threads present in both did in between, summed; the threads counted are those that ran
     */
    Span since(TaskTimes earlier, long messages) {
        long[] sum = new long[5];
        byThread.forEach((id, now) -> {
            long[] then = earlier.byThread.get(id);
            if (then != null) {
                boolean ran = false;
                for (int k = 0; k < 4; k++) {
                    sum[k] += now[k] - then[k];
                    ran |= now[k] != then[k];
                }
                sum[4] += ran ? 1 : 0;
            }
        });
        return new Span(sum[0], sum[1], sum[2], sum[3], sum[4], messages);
    }
}
