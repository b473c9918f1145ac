package org.ssbjca.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.beans.AttemptLog;
import org.ssbjca.it.beans.Recorder;
import org.ssbjca.it.beans.RecordingService;
import org.ssbjca.it.support.Await;
import org.ssbjca.it.support.BrokerDb;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.support.Postgres;

/**
 * Inbound delivery in WildFly on PostgreSQL: the test MDB {@link RecordingService} (four readers) records every
 * message in {@code it_record} in the delivery's XA transaction. The tests send from the client, straight into the
 * database, and check the outcome with SQL: commit, rollback and redelivery, a poison message dead-lettered while
 * the others flow, and 10,000 messages none lost and none duplicated.
 */
@ExtendWith(ArquillianExtension.class)
class InboundPostgresIT {

    /** What this test reports (figures, or why a backend is skipped). */
    private static final java.util.logging.Logger FIGURES =
            java.util.logging.Logger.getLogger(InboundPostgresIT.class.getName());

    private static final String QUEUE = RecordingService.QUEUE;
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static BrokerDb db;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        db().declare(QUEUE);
        return Deployments.rar(IronJacamar.forPostgres(Postgres.get()));
    }

    @Deployment(name = "beans", order = 2, testable = false)
    static WebArchive beans() {
        return Deployments.testWar("inbound-postgres-it.war", RecordingService.class, Recorder.class,
                AttemptLog.class);
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
    void aDeliveryCommitsItsWorkAndTakesTheMessageOffTheQueue() {
        String body = "commit:" + UUID.randomUUID();
        db().sendOne(QUEUE, body);

        await(body + " recorded").atMost(WAIT).until(() -> records(body) == 1);
        await("queue drained").atMost(WAIT).until(() -> db().depth(QUEUE) == 0);
        await("recorded once, and not delivered again").during(Duration.ofMillis(500)).atMost(WAIT)
                .until(() -> records(body) == 1);
    }

    @Test
    @RunAsClient
    void aRolledBackDeliveryIsUndoneAndDeliveredAgain() {
        String thrown = "throw-once:" + UUID.randomUUID();
        String marked = "rollback-once:" + UUID.randomUUID();
        db().sendOne(QUEUE, thrown);
        db().sendOne(QUEUE, marked);

        await("both recorded").atMost(WAIT).until(() -> records(thrown) == 1 && records(marked) == 1);
        await("queue drained").atMost(WAIT).until(() -> db().depth(QUEUE) == 0);
        assertEquals(2, attempts(thrown), "the bean threw on the first delivery; the second committed");
        assertEquals(2, attempts(marked), "setRollbackOnly on the first delivery; the second committed");
        assertEquals(1, records(thrown), "the first delivery's record was rolled back with it");
        assertEquals(1, records(marked), "the first delivery's record was rolled back with it");
        assertEquals(0, db().count("SELECT COUNT(*) FROM ssb.dead_letter WHERE convert_from(message_body, 'UTF8') "
                + "IN (?, ?)", thrown, marked));
    }

    @Test
    @RunAsClient
    void aPoisonMessageIsDeadLetteredAfterThreeAttemptsWhileTheOthersFlow() {
        String run = UUID.randomUUID().toString();
        String poison = "poison:" + run;
        int others = db().send(QUEUE, "flow-" + run + "-a", 20, 10);
        db().sendOne(QUEUE, poison);
        others += db().send(QUEUE, "flow-" + run + "-b", 20, 10);

        await("the poison message dead-lettered").atMost(WAIT).until(() -> deadLetters(poison) == 1);
        Await.count("other messages recorded", others, Duration.ofSeconds(60),
                () -> db().count("SELECT COUNT(DISTINCT body) FROM it_record WHERE body LIKE ?", "flow-" + run + "%"));
        await("queue drained").atMost(WAIT).until(() -> db().depth(QUEUE) == 0);

        long flowedBefore = db().count("SELECT COUNT(*) FROM it_record WHERE body LIKE ? AND recorded_at BETWEEN "
                + "(SELECT MIN(attempted_at) FROM it_attempt WHERE body = ?) AND "
                + "(SELECT dead_lettered_at FROM ssb.dead_letter WHERE convert_from(message_body, 'UTF8') = ?)",
                "flow-" + run + "%", poison, poison);
        FIGURES.info(String.format("poison message: %d failed deliveries, then dead-lettered; %d of the %d other "
                + "messages were committed between its first delivery and its dead-lettering", attempts(poison),
                flowedBefore, others));
        assertEquals(3, attempts(poison), "three failed deliveries (maxDeliveryAttempts), then none");
        assertEquals(3, db().count("SELECT attempts FROM ssb.dead_letter WHERE convert_from(message_body, 'UTF8') = ?",
                poison));
        assertEquals(0, records(poison), "every delivery of it rolled back");
        assertEquals(others, db().count("SELECT COUNT(*) FROM it_record WHERE body LIKE ?", "flow-" + run + "%"),
                "every other message recorded exactly once");
        assertTrue(flowedBefore > 0, "other messages were delivered while the poison message was retried");
        assertEquals(400, others);
    }

    @Test
    @RunAsClient
    void fourReadersTakeTenThousandMessagesNoneLostNoneDuplicated() {
        String run = "bulk-" + UUID.randomUUID();
        long start = System.nanoTime();
        int sent = db().send(QUEUE, run, 100, 100);
        long sentAt = System.nanoTime();

        Await.count("messages recorded", sent, Duration.ofSeconds(120),
                () -> db().count("SELECT COUNT(*) FROM it_record WHERE body LIKE ?", run + "%"));
        long doneAt = System.nanoTime();
        await("queue drained").atMost(WAIT).until(() -> db().depth(QUEUE) == 0);
        await("nothing recorded twice after the queue drained").during(Duration.ofSeconds(1)).atMost(WAIT)
                .until(() -> db().count("SELECT COUNT(*) FROM it_record WHERE body LIKE ?", run + "%") == sent);

        long count = db().count("SELECT COUNT(*) FROM it_record WHERE body LIKE ?", run + "%");
        long distinct = db().count("SELECT COUNT(DISTINCT body) FROM it_record WHERE body LIKE ?", run + "%");
        long duplicated = db().count("SELECT COUNT(*) FROM (SELECT body FROM it_record WHERE body LIKE ? "
                + "GROUP BY body HAVING COUNT(*) > 1) d", run + "%");
        long readers = db().count("SELECT COUNT(DISTINCT reader) FROM it_record WHERE body LIKE ?", run + "%");
        double seconds = (doneAt - start) / 1e9;
        FIGURES.info(String.format("4 readers x %d messages: sent in %.1f s, all recorded after %.1f s (%.0f "
                + "messages/s); %d rows, %d distinct, %d duplicated, recorded by %d reader threads", sent,
                (sentAt - start) / 1e9, seconds, sent / seconds, count, distinct, duplicated, readers));
        assertEquals(10_000, sent);
        assertEquals(10_000, count, "none lost, none recorded twice");
        assertEquals(10_000, distinct, "none lost");
        assertEquals(0, duplicated, "none duplicated");
        assertEquals(4, readers, "the four readers all delivered");
    }

    private static long records(String body) {
        return db().count("SELECT COUNT(*) FROM it_record WHERE body = ?", body);
    }

    private static long attempts(String body) {
        return db().count("SELECT COUNT(*) FROM it_attempt WHERE body = ?", body);
    }

    private static long deadLetters(String body) {
        return db().count("SELECT COUNT(*) FROM ssb.dead_letter WHERE convert_from(message_body, 'UTF8') = ?", body);
    }
}
