package org.ssbjca.sample.demo;

import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.ssbjca.api.Conversation;
import org.ssbjca.sample.echo.EchoClient;
import org.ssbjca.sample.priority.PriorityClient;
import org.ssbjca.sample.priority.PriorityResponse;
import org.ssbjca.sample.scheduler.ExecutionLog;
import org.ssbjca.sample.scheduler.Scheduler;
import org.ssbjca.sample.scheduler.StageTimeline;
import org.ssbjca.sample.scheduler.TaskScheduler;
import org.ssbjca.sample.scheduler.TaskSpec;
import org.ssbjca.sample.workqueue.WorkDeliveries;
import org.ssbjca.sample.workqueue.WorkLog;
import org.ssbjca.sample.workqueue.WorkProducer;
import org.ssbjca.sample.workqueue.WorkRun;

/** The scenarios behind {@link DemoMXBean}, run with the sample's EJBs. */
final class Demo implements DemoMXBean {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
    private static final Duration REPLY_WAIT = Duration.ofSeconds(30);
    /** Seed 002's test: ExecutionOrder and WAITFOR DELAY of each task, in milliseconds. */
    private static final int[][] SEED_002 = {
        {100, 10_100}, {100, 10_100}, {100, 10_100}, {100, 10_100},
        {200, 9_200}, {200, 9_200},
        {300, 8_300},
        {400, 7_400}, {400, 7_400},
        {500, 6_500},
    };

    private final Beans beans;

    /** The EJBs the scenarios use. */
    record Beans(EchoClient echo, PriorityClient priority, TaskScheduler scheduler, ExecutionLog executionLog,
            WorkProducer producer, WorkLog workLog) {
    }

    Demo(Beans beans) {
        this.beans = beans;
    }

    @Override
    public String runEcho(int count) {
        if (count < 1 || count > 1000) {
            throw new IllegalArgumentException("count must be between 1 and 1000: " + count);
        }
        List<Conversation> dialogs = new ArrayList<>();
        List<Long> sentAt = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        report.append(String.format("Echo: %d requests, each on its own dialog, EchoClientService -> EchoService%n",
                count));
        for (int i = 1; i <= count; i++) {
            sentAt.add(System.nanoTime());
            dialogs.add(beans.echo().send("request " + i));
            report.append(String.format("  %s  sent     'request %d' (committed)%n", LocalTime.now().format(TIME), i));
        }
        for (int i = 0; i < count; i++) {
            String reply = beans.echo().awaitReply(dialogs.get(i), REPLY_WAIT);
            long millis = (System.nanoTime() - sentAt.get(i)) / 1_000_000;
            report.append(String.format("  %s  received '%s' %d ms after sending; both sides ended%n",
                    LocalTime.now().format(TIME), reply == null ? "(nothing)" : reply, millis));
        }
        return report.toString();
    }

    @Override
    public String runPriority(int requests, int workloadMillis) {
        long start = System.nanoTime();
        List<Conversation> dialogs = beans.priority().sendRequests(requests, workloadMillis, "demo");
        Duration wait = Duration.ofMillis((long) requests * workloadMillis * 3 + 30_000);
        List<PriorityResponse> responses = beans.priority().collectResponses(dialogs, wait);
        StringBuilder report = new StringBuilder();
        report.append(String.format("Priority (seed 000): %d requests to PriorityService, each on its own dialog; every"
                + " 10th also sends SetPriority%nwith priority = its number. One reader, %d ms of work per request;"
                + " request 0 is in work while the others arrive.%nThe seed's order: 0 first (already in work), then"
                + " 90, 80, ..., 10 by priority, then 1, 2, 3, ... as they arrived.%n", requests, workloadMillis));
        if (!responses.isEmpty()) {
            report.append("The first response as it came back:\n  ").append(responses.get(0).xml()).append('\n');
        }
        report.append("The responses in the order they came back:\n");
        report.append(String.format("  %5s %8s  %-12s  %-12s  %s%n", "#", "request", "sent", "done",
                "reader (the container thread that did the work)"));
        int i = 1;
        for (PriorityResponse r : responses) {
            report.append(String.format("  %5d %8d  %-12s  %-12s  %s%n", i++, r.request().number(),
                    r.request().time(), r.time(), r.reader()));
        }
        report.append(wrap("Processing order: " + responses.stream().map(r -> String.valueOf(r.request().number()))
                .collect(Collectors.joining(" ")), 116));
        report.append(String.format("%d of %d responses in %.1f s%n", responses.size(), requests,
                (System.nanoTime() - start) / 1e9));
        return report.toString();
    }

    @Override
    public String runStagedScheduler(int percentOfSeedDelays) {
        if (percentOfSeedDelays < 1 || percentOfSeedDelays > 100) {
            throw new IllegalArgumentException("percentOfSeedDelays must be between 1 and 100");
        }
        List<TaskSpec> tasks = new ArrayList<>();
        for (int[] t : SEED_002) {
            int millis = t[1] * percentOfSeedDelays / 100;
            tasks.add(new TaskSpec(t[0], String.format("wait %.2fs", millis / 1000.0), millis));
        }
        long start = System.nanoTime();
        Scheduler s = beans.scheduler().open("demo", 5);
        beans.scheduler().submit(s, tasks);
        boolean done = beans.scheduler().awaitAll(s, Duration.ofMinutes(5));
        double seconds = (System.nanoTime() - start) / 1e9;
        beans.scheduler().close(s);
        return String.format("Staged scheduler (seeds 001 and 002): one scheduler = one dialog, %d tasks in 5 stages,"
                + " concurrency 5,%nrun by TaskWorker's 5 readers; the seed's delays at %d %%. Scheduler %s:%n",
                tasks.size(), percentOfSeedDelays, s.id())
                + StageTimeline.render(beans.executionLog().tasks(s.id()))
                + String.format("%s after %.1f s%n", done ? "All tasks done" : "NOT all tasks done", seconds);
    }

    @Override
    public String runWorkQueue(int items, int channels) {
        if (items < 1 || items > 100_000) {
            throw new IllegalArgumentException("items must be between 1 and 100000: " + items);
        }
        long start = System.nanoTime();
        WorkRun run = beans.producer().open(channels);
        beans.producer().enqueueAll(run, items, 1000);
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        WorkLog.Summary summary = beans.workLog().summary(run.runId());
        while (summary.rows() < items && System.nanoTime() < deadline) {
            sleep(200);
            summary = beans.workLog().summary(run.runId());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        beans.producer().close(run);
        StringBuilder report = new StringBuilder(String.format("Work queue (seeds 003 and 004): %d items on %d"
                + " dialogs, drained by WorkItemProcessor's 8 readers in %.1f s%n", items, channels, seconds));
        report.append(String.format("  work log: %d rows, %d distinct items (%d to %d); %d deliveries in all, %d"
                + " items delivered more than once%n", summary.rows(), summary.distinctItems(), summary.lowest(),
                summary.highest(), WorkDeliveries.total(run.runId()),
                WorkDeliveries.deliveredMoreThanOnce(run.runId())));
        beans.workLog().perReader(run.runId()).forEach(line -> report.append("  ").append(line).append('\n'));
        WorkDeliveries.forget(run.runId());
        return report.toString();
    }

    /** Breaks a line of words into lines of at most {@code width} characters, continued lines indented. */
    private static String wrap(String text, int width) {
        StringBuilder out = new StringBuilder();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                out.append(line).append('\n');
                line.setLength(0);
                line.append("   ");
            }
            if (line.length() > 0 && !line.toString().isBlank()) {
                line.append(' ');
            }
            line.append(word);
        }
        return out.append(line).append('\n').toString();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
