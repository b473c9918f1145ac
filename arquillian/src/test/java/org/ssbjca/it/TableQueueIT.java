package org.ssbjca.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.support.Warnings;
import org.ssbjca.it.tables.WorkItemListener;
import org.ssbjca.it.tables.WorkItems;

/**
 * Issue 16 in WildFly: the recipe of docs/guide/table-queues.md as written. The bean deploys before its table exists
 * (its readers look again); the table is created, 2,000 rows are enqueued through the connection factory in the
 * callers' transactions (and one enqueue that fails is rolled back); four readers deliver each row exactly once, the
 * bean's own insert committing with the row's dequeue time; the activation's MBean counts them. The database (H2) gives
 * up on any lock wait over 1 s, and no reader may log a failure once the table exists.
 */
@ExtendWith(ArquillianExtension.class)
class TableQueueIT {

    private static final java.util.logging.Logger FIGURES =
            java.util.logging.Logger.getLogger(TableQueueIT.class.getName());
    private static final int ROWS = 2_000;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.forDatabase("jdbc:h2:mem:table-queue-it;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=1000",
                "sa", null));
    }

    @Deployment(name = "ejb", order = 2)
    static JavaArchive ejb() {
        return Deployments.ejbJar("table-queue-it.jar", TableQueueIT.class, WorkItems.class, WorkItemListener.class,
                Warnings.class);
    }

    @EJB
    WorkItems items;

    @Test
    @OperateOnDeployment("ejb")
    void fourReadersDeliverEveryEnqueuedRowExactlyOnceWithTheBeansWork() throws Exception {
        items.createTables();
        assertThrows(EJBException.class, () -> items.enqueueThenFail("rolled back"));
        // a batch whose last row the table refuses (MessageBody VARBINARY(1000)): none of its rows is kept
        assertThrows(EJBException.class, () -> items.enqueue("x".repeat(999), 11));
        try (Warnings warnings = Warnings.of("org.ssbjca.inbound")) {
            long start = System.nanoTime();
            for (int i = 0; i < ROWS / 200; i++) {
                items.enqueue("item-" + i + "-", 200);
            }
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (items.count("SELECT COUNT(*) FROM Messaging.Message WHERE DequeueTime IS NULL") > 0
                    && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            FIGURES.info(String.format("TableQueueIT: %d rows enqueued and delivered in %s", ROWS, took));
            assertEquals(ROWS, items.count("SELECT COUNT(*) FROM Messaging.Message"),
                    "the failed enqueues rolled back");
            assertEquals(ROWS, items.count("SELECT COUNT(*) FROM Messaging.Message WHERE DequeueTime IS NOT NULL"),
                    "every row kept with its dequeue time");
            assertEquals(ROWS, items.count("SELECT COUNT(*) FROM Messaging.Handled"), "the bean's work, once per row");
            assertEquals(ROWS, items.count("SELECT COUNT(DISTINCT MessageBody) FROM Messaging.Handled"));

            MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("org.ssbjca:type=TableActivation,name=WorkItemListener@Messaging.Message");
            assertEquals((long) ROWS, jmx.getAttribute(name, "DeliveredRows"));
            assertEquals(0L, jmx.getAttribute(name, "AvailableRows"));
            assertEquals(0L, jmx.getAttribute(name, "FailedDeliveries"));
            assertEquals(4, jmx.getAttribute(name, "ReaderCount"));
            assertEquals("transactional", jmx.getAttribute(name, "Mode"));
            assertEquals(List.of(), warnings.seen(), "no reader failed once the table existed");

            // then a row that always fails (the listener's insert refused for its body), ahead of 20 good ones: the
            // 20 are delivered while it waits for its retry delay (1 s), its first failure the only warning
            items.execute("ALTER TABLE Messaging.Handled ADD CONSTRAINT Handled_NoPoison CHECK (MessageBody <>"
                    + " X'706F69736F6E30')"); // 'poison0'
            long behind = System.nanoTime();
            items.enqueue("poison", 1);
            items.enqueue("after-", 20);
            deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (items.count("SELECT COUNT(*) FROM Messaging.Handled") < ROWS + 20 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            FIGURES.info(String.format("TableQueueIT: the 20 rows behind a failing row delivered in %s",
                    Duration.ofNanos(System.nanoTime() - behind)));
            assertEquals(ROWS + 20, items.count("SELECT COUNT(*) FROM Messaging.Handled"), "the rows behind it");
            while ((Long) jmx.getAttribute(name, "FailedDeliveries") < 3 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            String lastError = (String) jmx.getAttribute(name, "LastError");
            assertTrue(lastError != null && lastError.contains("cannot record row") && lastError.contains("failed"),
                    lastError);
            assertEquals(1, warnings.seen().stream().filter(w -> w.contains("SSBJCA0113")).count(),
                    warnings.seen().toString());
            assertEquals(1, warnings.seen().size(), warnings.seen().toString());
        }
    }
}
