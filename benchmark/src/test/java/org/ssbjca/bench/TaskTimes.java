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
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                if (!name.startsWith(comm)) {
                    continue;
                }
                // after "(comm) ": state is field 3 of the whole line, utime 14, stime 15
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
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
     * @param earlier a reading of the same threads taken before this one
     * @return {user ticks, system ticks, voluntary switches, involuntary switches, threads} between the two, summed
     *     over the threads present in both; the threads counted are those that ran in between
     */
    long[] since(TaskTimes earlier) {
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
        return sum;
    }
}
