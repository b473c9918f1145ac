package org.ssbjca.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jboss.as.controller.client.ModelControllerClient;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;

/** What the tests do to a WildFly's configuration: management operations on the manual server, application users. */
public final class ServerAdmin {

    private ServerAdmin() {
    }

    /**
     * Runs a management operation on the manual server.
     *
     * @param operation the operation
     * @return its result
     * @throws IllegalStateException naming the operation and the failure when it fails
     */
    public static ModelNode manual(ModelNode operation) {
        try (ModelControllerClient client = ModelControllerClient.Factory.create("remote+http", "127.0.0.1",
                Integer.getInteger("ssb.it.manualManagementPort", 10090))) {
            ModelNode outcome = client.execute(operation);
            if (!Operations.isSuccessfulOutcome(outcome)) {
                throw new IllegalStateException(operation + ": " + Operations.getFailureDescription(outcome));
            }
            return Operations.readResult(outcome);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code add-user.sh -a}: an application user (security domain {@code other}) in a role, as
      * docs/operations/console.md says.
     *
     * @param configuration the server's configuration directory
     * @param user the user name
     * @param password the password
     * @param role the role (add-user's group)
     */
    public static void addApplicationUser(Path configuration, String user, String password, String role)
            throws IOException, InterruptedException {
        Path jbossHome = Path.of(System.getProperty(ManualServer.JBOSS_HOME_PROPERTY));
        Process p = new ProcessBuilder(jbossHome.resolve("bin").resolve("add-user.sh").toString(), "-a", "-s",
                "-u", user, "-p", password, "-g", role, "-sc", configuration.toString())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("add-user.sh did not finish: " + output);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("add-user.sh failed: " + output);
        }
    }

    /**
     * The output and exit code of a {@code jboss-cli.sh} run against the manual server.
     *
     * @param exit its exit code
     * @param output what it printed
     */
    public record Cli(int exit, String output) {
    }

    /**
     * @param script a CLI script, as a user runs it with {@code --file}
     * @param arguments more arguments ({@code -Dname=value})
     * @return jboss-cli's run of it against the manual server
     */
    public static Cli cli(String script, String... arguments) {
        List<String> args = new ArrayList<>();
        args.add("--file=" + Path.of(script).toAbsolutePath().normalize());
        args.addAll(List.of(arguments));
        return jbossCli(args);
    }

    /**
     * @param command one CLI command
     * @return jboss-cli's run of it against the manual server
     */
    public static Cli command(String command) {
        return jbossCli(List.of("--command=" + command));
    }

    /**
     * A reload as the manual runs it: jboss-cli waits up to 2 minutes for the server to come back, not its default 6 s,
     * which a slow server's reload outlasts.
     *
     * @return jboss-cli's run of it against the manual server
     */
    public static Cli reload() {
        return jbossCli(List.of("--timeout=120000", "--command=reload"));
    }

    private static Cli jbossCli(List<String> arguments) {
        Path jbossHome = Path.of(System.getProperty(ManualServer.JBOSS_HOME_PROPERTY));
        List<String> command = new ArrayList<>(List.of(jbossHome.resolve("bin").resolve("jboss-cli.sh").toString(),
                "--connect", "--controller=remote+http://127.0.0.1:" + Integer.getInteger("ssb.it.manualManagementPort",
                10090)));
        command.addAll(arguments);
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("jboss-cli did not finish: " + output);
            }
            return new Cli(p.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
