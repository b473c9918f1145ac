package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.Conversation;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;

/**
 * Two transactions setting one group's priority at once (two nodes scanning the same SetPriority request, or an
 * operator's JMX call beside a scan) on PostgreSQL: the second waits for the first and its priority is the one kept,
 * instead of failing on the group's primary key (a reader's scan that failed so was a reader failure).
 */
class ConcurrentSetPriorityTest {

    @Test
    void theLaterOfTwoConcurrentPrioritiesWinsWithoutAFailure() throws Exception {
        try (InboundHarness h = InboundBackends.harness("PostgreSQL")) {
            Conversation c = h.send("a");
            UUID group = h.tx(s -> s.receive(org.ssbjca.api.ReceiveRequest.from(InboundHarness.TARGET_QUEUE)
                    .timeout(Duration.ZERO))).stream().findFirst().orElseThrow().conversationGroupId();
            CountDownLatch firstSet = new CountDownLatch(1);
            CountDownLatch commitFirst = new CountDownLatch(1);
            CompletableFuture<Void> first = CompletableFuture.runAsync(() -> h.tx(s -> {
                s.setPriority(group, 5);
                firstSet.countDown();
                try {
                    commitFirst.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return null;
            }));
            firstSet.await(30, TimeUnit.SECONDS);
            CompletableFuture<Void> second = CompletableFuture.runAsync(() -> h.tx(s -> {
                s.setPriority(group, 7);
                return null;
            }));
            Awaitility.await("the second waits for the first's row").atMost(Duration.ofSeconds(30))
                    .until(() -> RowLocks.someSessionWaits(h.db.source()));
            commitFirst.countDown();

            first.get(30, TimeUnit.SECONDS);
            second.get(30, TimeUnit.SECONDS);
            assertEquals(7, priority(h, group));
        }
    }

    private static int priority(InboundHarness h, UUID group) throws Exception {
        try (Connection c = h.db.source().open(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT priority FROM ssb.conversation_priority"
                     + " WHERE conversation_group_id = '" + group + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
