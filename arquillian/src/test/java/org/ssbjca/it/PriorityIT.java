package org.ssbjca.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.sample.priority.PriorityClient;
import org.ssbjca.sample.priority.PriorityResponse;

/**
 * Seed 000 in WildFly on H2: 100 requests to PriorityService (one reader), every 10th with SetPriority n. The
 * responses come back in the seed's published order: 0 (already in work), then 90, 80, ..., 10 by priority, then
 * 1, 2, 3, ... in arrival order. The adapter does the reordering: the client sends in numeric order and the service
 * takes whatever its reader is given.
 */
@ExtendWith(ArquillianExtension.class)
class PriorityIT {

    private static final int REQUESTS = 100;
    private static final int WORKLOAD_MILLIS = 40;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.h2InMemory("priority-it"));
    }

    @Deployment(name = "ejb", order = 2)
    static JavaArchive ejb() {
        return Deployments.ejbSample(PriorityIT.class);
    }

    @EJB
    PriorityClient client;

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    ServiceBrokerConnectionFactory factory;

    @Test
    @OperateOnDeployment("ejb")
    void responsesComeBackInTheSeedsOrder() throws Exception {
        List<Conversation> dialogs = client.sendRequests(REQUESTS, WORKLOAD_MILLIS, "PriorityIT");
        List<PriorityResponse> responses = client.collectResponses(dialogs, Duration.ofSeconds(90));

        List<Integer> expected = new ArrayList<>(List.of(0));
        for (int p = 90; p >= 10; p -= 10) {
            expected.add(p);
        }
        for (int i = 1; i < REQUESTS; i++) {
            if (i % 10 != 0) {
                expected.add(i);
            }
        }
        String report = responses.stream().map(PriorityResponse::xml).collect(Collectors.joining("\n"));
        assertEquals(expected, responses.stream().map(r -> r.request().number()).collect(Collectors.toList()),
                "0 was in work; then 90 to 10 by priority; then the rest in arrival order:\n" + report);
        assertEquals(1, responses.stream().map(PriorityResponse::reader).distinct().count(),
                "one reader did all the work");
        awaitZero("SELECT COUNT(*) FROM ssb.conversation_endpoint WHERE service_name IN"
                + " ('PriorityService', 'PriorityClientService')", "every dialog ended on both sides");
        assertEquals(0, count("SELECT COUNT(*) FROM ssb.message WHERE queue_name IN"
                + " ('PriorityServiceQueue', 'PriorityClientQueue')"), "no SetPriority or other message left over");
        assertEquals(0, count("SELECT COUNT(*) FROM ssb.conversation_priority"), "every priority was dropped");
    }

    /** Runs in the server, where the test has no Awaitility: a bounded poll of its own. */
    private void awaitZero(String sql, String what) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (count(sql) != 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(0, count(sql), what);
    }

    private long count(String sql) throws SQLException {
        try (ServiceBrokerConnection broker = factory.getConnection();
             PreparedStatement ps = broker.jdbcConnection().prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
