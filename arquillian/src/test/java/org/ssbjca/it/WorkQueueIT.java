package org.ssbjca.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
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
import org.ssbjca.sample.workqueue.WorkDeliveries;
import org.ssbjca.sample.workqueue.WorkLog;
import org.ssbjca.sample.workqueue.WorkProducer;
import org.ssbjca.sample.workqueue.WorkRun;

/**
 * Seeds 003 and 004 in WildFly: eight readers drain 10,000 work items; each is processed exactly once, and no reader
 * waits for a lock another holds.
 *
 * <p>The database (H2) runs with {@code LOCK_TIMEOUT=1}: a statement that had to wait more than 1 ms for a row lock
 * would fail, which rolls its delivery back (the item would then be handed over a second time) or makes its reader
 * log a failure and reconnect. Neither happens: readers skip the conversation groups others hold (the seeds'
 * READPAST, or sp_getapplock with no wait), they do not queue up behind them. (On PostgreSQL the same check is not
 * meaningful: eight sessions inserting into one table also wait, briefly, on PostgreSQL's relation extension lock.)
 */
@ExtendWith(ArquillianExtension.class)
class WorkQueueIT {

    /** What this test reports (figures, or why a backend is skipped). */
    private static final java.util.logging.Logger FIGURES =
            java.util.logging.Logger.getLogger(WorkQueueIT.class.getName());

    private static final int ITEMS = 10_000;
    private static final int CHANNELS = 100;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.forDatabase("jdbc:h2:mem:work-queue-it;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=1",
                "sa", null));
    }

    @Deployment(name = "ejb", order = 2)
    static JavaArchive ejb() {
        return Deployments.ejbSample(WorkQueueIT.class, org.ssbjca.it.support.Warnings.class);
    }

    @EJB
    WorkProducer producer;

    @EJB
    WorkLog workLog;

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    ServiceBrokerConnectionFactory factory;

    @Test
    @OperateOnDeployment("ejb")
    void eightReadersDrainTenThousandItemsEachExactlyOnceWithoutWaitingForEachOther() throws Exception {
        assertEquals("1", scalar("SELECT LOCK_TIMEOUT()"), "the adapter's sessions give up on any lock wait over 1 ms");
        try (org.ssbjca.it.support.Warnings warnings = org.ssbjca.it.support.Warnings.of("org.ssbjca")) {
            WorkRun run = producer.open(CHANNELS);
            long start = System.nanoTime();
            producer.enqueueAll(run, ITEMS, 1000);
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while ((workLog.summary(run.runId()).rows() < ITEMS || queueDepth() > 0) && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            WorkLog.Summary log = workLog.summary(run.runId());
            String perReader = String.join(", ", workLog.perReader(run.runId()));
            FIGURES.info(String.format("WorkQueueIT: %d items drained in %s by %s", ITEMS, took, perReader));

            assertEquals(0, queueDepth(), "the queue was drained");
            assertEquals(ITEMS, log.rows(), "one committed processing per item");
            assertEquals(ITEMS, log.distinctItems(), "every item");
            assertEquals(1, log.lowest());
            assertEquals(ITEMS, log.highest());
            assertEquals(ITEMS, WorkDeliveries.total(run.runId()), "no item was handed over twice, not even in a"
                    + " delivery that rolled back");
            assertEquals(0, WorkDeliveries.deliveredMoreThanOnce(run.runId()));
            assertEquals(8, log.readers(), "all eight readers took items: " + perReader);
            assertEquals(List.of(), warnings.seen(), "no reader failed (a lock wait would have)");
            producer.close(run);
        }
    }

    private long queueDepth() throws SQLException {
        return Long.parseLong(scalar("SELECT COUNT(*) FROM ssb.message WHERE queue_name = 'WorkQueue'"));
    }

    private String scalar(String sql) throws SQLException {
        try (ServiceBrokerConnection broker = factory.getConnection();
             PreparedStatement ps = broker.jdbcConnection().prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }
}
