package org.ssbjca.inbound;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.conformance.PostgresServer;

/** Harnesses on the backends that run here, for inbound tests that run once per backend. Public for management. */
public final class InboundBackends {

    private InboundBackends() {
    }

    /**
     * @param backend {@code H2} (a private in-memory database) or {@code PostgreSQL} (a new database on the suite's
     *        server)
     * @return a started harness on it
     * @throws Exception if the adapter does not start
     */
    public static InboundHarness harness(String backend) throws Exception {
        switch (backend) {
            case "H2":
                return new InboundHarness();
            case "PostgreSQL":
                DatabaseConfig db = PostgresServer.get().newDatabase(
                        "inbound_" + UUID.randomUUID().toString().replace("-", ""));
                return new InboundHarness(withCredentials(db));
            default:
                throw new IllegalArgumentException("no such backend here: " + backend);
        }
    }

    /** @return the URL with the user and password as PostgreSQL URL parameters */
    private static String withCredentials(DatabaseConfig db) {
        StringBuilder url = new StringBuilder(db.url()).append(db.url().contains("?") ? '&' : '?');
        url.append("user=").append(encode(db.user()));
        if (db.password() != null) {
            url.append("&password=").append(encode(db.password()));
        }
        return url.toString();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
