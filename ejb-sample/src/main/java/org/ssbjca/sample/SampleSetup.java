package org.ssbjca.sample;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.logging.Logger;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * Declares the sample's broker objects and creates its tables at deployment on the portable backends (H2,
 * PostgreSQL), from the same {@code sql/portable/sample-install.sql} a DBA would run. On SQL Server they are created
 * by running {@code sql/sqlserver/sample-install.sql} beforehand.
 */
@Startup
@Singleton
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SampleSetup {

    private static final Logger LOG = Logger.getLogger(SampleSetup.class.getName());

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @PostConstruct
    void declareObjects() {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            Connection jdbc = broker.jdbcConnection();
            String product = jdbc.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
            if (!product.contains("h2") && !product.contains("postgres")) {
                LOG.info("sample objects on " + product + " come from sql/sqlserver/sample-install.sql");
                return;
            }
            try (Statement s = jdbc.createStatement()) {
                s.execute(script());
            }
            LOG.info("sample broker objects declared on " + product);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot declare the sample's broker objects: " + e.getMessage(), e);
        }
    }

    private static String script() {
        try (InputStream in = SampleSetup.class.getResourceAsStream("sample-install.sql")) {
            if (in == null) {
                throw new IllegalStateException("sample-install.sql is missing from the sample jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read sample-install.sql", e);
        }
    }
}
