package org.ssbjca.it.delayed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ScheduledSend;
import org.ssbjca.it.app.BrokerObjects;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;

/**
 * Delayed sends in WildFly on H2, through the connection factory in container transactions, to an MDB with two
 * readers: a send scheduled 2 s ahead arrives once and not before its due time; one scheduled as far ahead and then
 * cancelled in a later transaction, and one whose scheduling transaction rolled back, never arrive. A marker due a
 * second after them on the same conversation is the state that shows "never": sends due earlier on a conversation
 * are sent, and received, before it.
 */
@ExtendWith(ArquillianExtension.class)
class DelayedSendIT {

    private static final Duration AHEAD = Duration.ofSeconds(2);
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.h2InMemory("delayed-send-it"));
    }

    @Deployment(name = "ejb", order = 2)
    static JavaArchive ejb() {
        return Deployments.ejbJar("delayed-send-it.jar", DelayedSendIT.class, DelayedSender.class,
                DelayedSetup.class, DelayedArrivals.class, DelayedArrivals.Arrival.class, BrokerObjects.class);
    }

    @EJB
    DelayedSender sender;

    @Test
    @OperateOnDeployment("ejb")
    void aDueSendArrivesOnceNotBeforeItsTimeAndCancelledOrRolledBackOnesNever() throws Exception {
        Conversation c = sender.begin();
        ScheduledSend due = sender.schedule(c, "due", AHEAD);
        ScheduledSend cancelled = sender.schedule(c, "cancelled", AHEAD);
        assertThrows(EJBException.class, () -> sender.scheduleThenRollBack(c, "rolled back", AHEAD));
        assertTrue(sender.cancel(cancelled), "cancelled while pending");
        assertFalse(sender.cancel(cancelled), "a second cancel finds nothing");
        ScheduledSend marker = sender.schedule(c, "marker", AHEAD.plusSeconds(1));

        awaitArrival("marker");

        List<DelayedArrivals.Arrival> arrived = DelayedArrivals.arrived();
        assertEquals(List.of("due", "marker"), arrived.stream().map(DelayedArrivals.Arrival::body).toList(),
                "each once, in due order; neither the cancelled nor the rolled-back one: " + arrived);
        Map<String, DelayedArrivals.Arrival> byBody = arrived.stream()
                .collect(Collectors.toMap(DelayedArrivals.Arrival::body, Function.identity()));
        assertFalse(byBody.get("due").at().isBefore(due.dueAt()), "due at " + due.dueAt() + ", arrived at "
                + byBody.get("due").at());
        assertFalse(byBody.get("marker").at().isBefore(marker.dueAt()), "due at " + marker.dueAt() + ", arrived at "
                + byBody.get("marker").at());
        assertFalse(sender.cancel(due), "sent: too late to cancel");
    }

    /** Runs in the server, where the test has no Awaitility: a bounded poll of its own. */
    private static void awaitArrival(String body) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (DelayedArrivals.arrived().stream().noneMatch(a -> a.body().equals(body))
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(DelayedArrivals.arrived().stream().anyMatch(a -> a.body().equals(body)), body + " arrived within "
                + PATIENCE + ": " + DelayedArrivals.arrived());
    }
}
