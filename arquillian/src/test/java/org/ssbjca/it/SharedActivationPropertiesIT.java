package org.ssbjca.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.shared.SharedQueueBean;
import org.ssbjca.it.shared.SharedTableBean;
import org.ssbjca.it.support.BrokerDb;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.support.Postgres;
import org.ssbjca.it.support.RemoteJmx;

/**
 * Issue 46 point 1 leftover: the failure-policy and circuit-breaker properties are declared once, on a class both
 * activation specs extend. A queue bean and a table bean each set {@code unrecoverableExceptions} and the breaker's
 * properties; in WildFly both take effect: a message or row failing with a listed exception is set aside after one
 * delivery (not after the three its limit allows), failures of two others open the breaker, and WildFly ignores none
 * of the properties (it logs {@code WFLYEJB0006} for a property the adapter does not declare).
 */
@ExtendWith(ArquillianExtension.class)
class SharedActivationPropertiesIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static BrokerDb db;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        db().declare(SharedQueueBean.QUEUE);
        db().execute("DROP TABLE IF EXISTS " + SharedTableBean.TABLE);
        db().execute("CREATE TABLE " + SharedTableBean.TABLE + " (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL,"
                + " attempts INT NOT NULL DEFAULT 0)");
        return Deployments.rar(IronJacamar.forPostgres(Postgres.get()));
    }

    @Deployment(name = "beans", order = 2, testable = false)
    static WebArchive beans() {
        return Deployments.testWar("shared-properties-it.war", SharedQueueBean.class, SharedTableBean.class);
    }

    private static synchronized BrokerDb db() {
        if (db == null) {
            db = BrokerDb.of(Postgres.get());
        }
        return db;
    }

    @AfterAll
    static void close() {
        if (db != null) {
            db.close();
        }
    }

    @Test
    @RunAsClient
    void aQueueBeanAndATableBeanEachGetTheirPolicyAndBreaker() throws Exception {
        try (RemoteJmx jmx = RemoteJmx.connect()) {
            MBeanServerConnection server = jmx.server();
            ObjectName queue = new ObjectName("org.ssbjca:type=Activation,name=SharedQueueBean@"
                    + SharedQueueBean.QUEUE);
            ObjectName table = new ObjectName("org.ssbjca:type=TableActivation,name=SharedTableBean@"
                    + SharedTableBean.TABLE);

            // the policy: a listed exception sets the message aside at its first failure, uncharged to the breaker
            db().sendOne(SharedQueueBean.QUEUE, "bad-1");
            await("the queue's bad message dead-lettered").atMost(WAIT)
                    .until(() -> (Long) server.getAttribute(queue, "DeadLettered") == 1L);
            assertEquals(0L, server.getAttribute(queue, "Redelivered"), "delivered once, not maxDeliveryAttempts");
            assertEquals("CLOSED", server.getAttribute(queue, "BreakerState"));
            db().execute("INSERT INTO " + SharedTableBean.TABLE + " (body) VALUES ('bad-1')");
            await("the table's bad row set aside").atMost(WAIT)
                    .until(() -> (Long) server.getAttribute(table, "SetAsideRows") == 1L);
            assertEquals(1L, server.getAttribute(table, "FailedDeliveries"), "taken once, not maxAttempts times");
            assertEquals("CLOSED", server.getAttribute(table, "BreakerState"));

            // the breaker: failures of two messages in a row open it (threshold 2), for ten minutes
            db().sendOne(SharedQueueBean.QUEUE, "down-1");
            db().sendOne(SharedQueueBean.QUEUE, "down-2");
            db().execute("INSERT INTO " + SharedTableBean.TABLE + " (body) VALUES ('down-1'), ('down-2')");
            await("the queue's breaker open").atMost(WAIT)
                    .until(() -> "OPEN".equals(server.getAttribute(queue, "BreakerState")));
            await("the table's breaker open").atMost(WAIT)
                    .until(() -> "OPEN".equals(server.getAttribute(table, "BreakerState")));
            assertEquals(1L, server.getAttribute(queue, "BreakerTrips"));
            assertEquals(1L, server.getAttribute(table, "BreakerTrips"));
        }
        assertEquals(List.of(), ignoredProperties(), "activation properties WildFly ignored");
    }

    /** @return the suite server's log lines saying an activation property of a bean of this test is ignored */
    private static List<String> ignoredProperties() throws java.io.IOException {
        Path log = Path.of(System.getProperty("ssb.it.suiteBaseDir"), "log", "server.log");
        try (Stream<String> lines = Files.lines(log)) {
            return lines.filter(l -> l.contains("WFLYEJB0006") && (l.contains("breaker") || l.contains("Exceptions")))
                    .toList();
        }
    }
}
