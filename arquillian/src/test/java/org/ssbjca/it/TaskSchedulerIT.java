package org.ssbjca.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.sample.scheduler.ExecutionLog;
import org.ssbjca.sample.scheduler.Scheduler;
import org.ssbjca.sample.scheduler.StageTimeline;
import org.ssbjca.sample.scheduler.TaskRecord;
import org.ssbjca.sample.scheduler.TaskScheduler;
import org.ssbjca.sample.scheduler.TaskSpec;

/**
 * Seeds 001 and 002 in WildFly on H2: the staged task scheduler, proven from its execution log. TaskWorker has 5
 * readers.
 */
@ExtendWith(ArquillianExtension.class)
class TaskSchedulerIT {

    /** What this test reports (figures, or why a backend is skipped). */
    private static final java.util.logging.Logger FIGURES =
            java.util.logging.Logger.getLogger(TaskSchedulerIT.class.getName());

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.h2InMemory("task-scheduler-it"));
    }

    @Deployment(name = "ejb", order = 2)
    static JavaArchive ejb() {
        return Deployments.ejbSample(TaskSchedulerIT.class);
    }

    @EJB
    TaskScheduler scheduler;

    @EJB
    ExecutionLog log;

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    ServiceBrokerConnectionFactory factory;

    /**
     * Seed 002's run (stages 100 x4, 200 x2, 300 x1, 400 x2, 500 x1; its delays at 10 %), then seed 001's reuse of the
     * scheduler for one more stage: same-stage tasks ran together, no task started before every task of every earlier
     * stage had ended, and all of it went over one conversation.
     */
    @Test
    @OperateOnDeployment("ejb")
    void seed002StagesRunInOrderAndEachStageRunsTogether() throws Exception {
        List<String> before = schedulerConversations();
        Scheduler s = scheduler.open("TaskSchedulerIT", 5);
        List<TaskSpec> tasks = new ArrayList<>();
        int[][] seed = {{100, 10_100}, {100, 10_100}, {100, 10_100}, {100, 10_100}, {200, 9_200}, {200, 9_200},
            {300, 8_300}, {400, 7_400}, {400, 7_400}, {500, 6_500}};
        for (int[] t : seed) {
            tasks.add(new TaskSpec(t[0], "wait " + t[1] / 10 + " ms", t[1] / 10));
        }
        scheduler.submit(s, tasks);
        assertTrue(scheduler.awaitAll(s, WAIT), "the ten tasks finished");

        scheduler.submit(s, List.of(new TaskSpec(600, "again", 200), new TaskSpec(600, "again", 200)));
        assertTrue(scheduler.awaitAll(s, WAIT), "the scheduler was used again");
        List<String> begun = schedulerConversations();
        begun.removeAll(before);
        assertEquals(1, begun.size(), "one conversation carried every task: " + begun);
        scheduler.close(s);

        List<TaskRecord> done = log.tasks(s.id());
        String timeline = StageTimeline.render(done);
        assertEquals(12, done.size(), timeline);
        for (TaskRecord t : done) {
            assertEquals("ENDED", t.state(), timeline);
            assertEquals("OK", t.outcome(), timeline);
            assertNotNull(t.syncedAt(), "the caller's synchronization received every AsyncDone");
        }
        Map<Integer, List<TaskRecord>> byStage = done.stream().collect(Collectors.groupingBy(TaskRecord::stage));
        for (List<TaskRecord> stage : byStage.values()) {
            Instant lastStart = stage.stream().map(TaskRecord::startedAt).max(Instant::compareTo).orElseThrow();
            Instant firstEnd = stage.stream().map(TaskRecord::endedAt).min(Instant::compareTo).orElseThrow();
            assertTrue(lastStart.isBefore(firstEnd), "the tasks of stage " + stage.get(0).stage()
                    + " all ran at the same time:\n" + timeline);
        }
        for (TaskRecord t : done) {
            for (TaskRecord earlier : done) {
                if (earlier.stage() < t.stage()) {
                    assertTrue(t.startedAt().isAfter(earlier.endedAt()), "task " + t.taskNo() + " (stage " + t.stage()
                            + ") started after task " + earlier.taskNo() + " (stage " + earlier.stage() + ") ended:\n"
                            + timeline);
                }
            }
        }
        assertEquals(4, byStage.get(100).stream().map(TaskRecord::reader).distinct().count(),
                "stage 100 ran on four readers:\n" + timeline);
        FIGURES.info(String.valueOf(timeline));
    }

    /** A scheduler's concurrency caps how many of its tasks run at once, however many readers are free. */
    @Test
    @OperateOnDeployment("ejb")
    void theConcurrencyLimitCapsHowManyTasksRunAtOnce() {
        Scheduler s = scheduler.open("TaskSchedulerIT", 2);
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            tasks.add(new TaskSpec(1, "task " + i, 200));
        }
        scheduler.submit(s, tasks);
        assertTrue(scheduler.awaitAll(s, WAIT));
        scheduler.close(s);

        List<TaskRecord> done = log.tasks(s.id());
        assertEquals(2, mostAtOnce(done), "at most two at a time, and two at a time:\n" + StageTimeline.render(done));
    }

    /**
     * Readers are shared fairly: a scheduler that submits 5 tasks after another submitted 1,000 (each may use every
     * reader) is done while the big one has done under a fifth of its tasks.
     */
    @Test
    @OperateOnDeployment("ejb")
    void aSchedulerWithAThousandQueuedTasksDoesNotStarveOneWithFive() {
        Scheduler big = scheduler.open("big", 5);
        List<TaskSpec> many = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            many.add(new TaskSpec(1, "big " + i, 50));
        }
        scheduler.submit(big, many);

        long start = System.nanoTime();
        Scheduler small = scheduler.open("small", 5);
        List<TaskSpec> few = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            few.add(new TaskSpec(1, "small " + i, 50));
        }
        scheduler.submit(small, few);
        assertTrue(scheduler.awaitAll(small, WAIT));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        long bigEnded = log.tasks(big.id()).stream().filter(t -> "ENDED".equals(t.state())).count();
        scheduler.close(big);
        FIGURES.info(String.format("TaskSchedulerIT: the small scheduler's 5 tasks took %d ms; the big one had done "
                + "%d of 1000", took.toMillis(), bigEnded));

        // An order, not a time (a slow machine slows both): the small one ends while the big one is far from done.
        assertTrue(bigEnded < 200, "the small scheduler finished while the big one had done " + bigEnded
                + " of its 1000 tasks");
    }

    private static int mostAtOnce(List<TaskRecord> tasks) {
        int most = 0;
        for (TaskRecord t : tasks) {
            int running = 0;
            for (TaskRecord u : tasks) {
                if (!u.startedAt().isAfter(t.startedAt()) && u.endedAt().isAfter(t.startedAt())) {
                    running++;
                }
            }
            most = Math.max(most, running);
        }
        return most;
    }

    /** @return the conversations of the scheduler services, from the broker's endpoints */
    private List<String> schedulerConversations() throws SQLException {
        try (ServiceBrokerConnection broker = factory.getConnection();
             PreparedStatement ps = broker.jdbcConnection().prepareStatement("SELECT DISTINCT conversation_id"
                     + " FROM ssb.conversation_endpoint WHERE service_name IN ('AsyncInitiatorService',"
                     + " 'AsyncTargetService')");
             ResultSet rs = ps.executeQuery()) {
            List<String> ids = new ArrayList<>();
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
            return ids;
        }
    }
}
