package org.ssbjca.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jboss.as.controller.client.ModelControllerClient;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;

/** The manual node's transaction log, read the way docs/operations/in-doubt.md tells an operator to. */
public final class LogStore {

    private LogStore() {
    }

    /**
     * {@code :probe} of the transactions subsystem's log store, then its {@code transactions} children.
     *
     * @return the transactions the manual node's log store holds
     */
    public static List<String> transactions() {
        int port = Integer.getInteger("ssb.it.manualManagementPort", 10090);
        try (ModelControllerClient client = ModelControllerClient.Factory.create("remote+http", "127.0.0.1", port)) {
            ModelNode logStore = new ModelNode();
            logStore.add("subsystem", "transactions").add("log-store", "log-store");
            execute(client, Operations.createOperation("probe", logStore));
            ModelNode list = Operations.createOperation("read-children-names", logStore);
            list.get("child-type").set("transactions");
            List<String> names = new ArrayList<>();
            execute(client, list).asList().forEach(n -> names.add(n.asString()));
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return how many files the manual node's object store holds */
    public static long objectStoreFiles() {
        Path store = ManualServer.baseDir().resolve("data").resolve("tx-object-store");
        if (Files.notExists(store)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(store)) {
            return files.filter(Files::isRegularFile).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param text what to look for
     * @return how many lines of the manual node's {@code server.log} contain it
     */
    public static long serverLogLines(String text) {
        Path log = ManualServer.baseDir().resolve("log").resolve("server.log");
        if (Files.notExists(log)) {
            return 0;
        }
        try (Stream<String> lines = Files.lines(log)) {
            return lines.filter(l -> l.contains(text)).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ModelNode execute(ModelControllerClient client, ModelNode operation) throws IOException {
        ModelNode outcome = client.execute(operation);
        if (!Operations.isSuccessfulOutcome(outcome)) {
            throw new IllegalStateException(operation + ": " + Operations.getFailureDescription(outcome));
        }
        return Operations.readResult(outcome);
    }
}
