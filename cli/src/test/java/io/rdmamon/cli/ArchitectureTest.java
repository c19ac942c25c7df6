package io.rdmamon.cli;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.rdmamon.protocol.testing.ArchitectureRules;
import io.rdmamon.protocol.testing.ArchitectureRules.Module;

/**
 * The command line's packages import each other one way only (the root package, {@code Main}, on top), and it
 * uses the modules it wires, never the it module's tests (README.md "Source layout").
 */
@AnalyzeClasses(packages = "io.rdmamon.cli", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    @ArchTest
    static final ArchRule packagesImportOneWay = ArchitectureRules.packagesFreeOfCycles(Module.CLI);

    @ArchTest
    static final ArchRule usesOnlyItsModules = ArchitectureRules.usesOnlyItsModules(Module.CLI);

    /** The tests' classes, which the rules above leave out, are imported apart. */
    @ArchTest
    static void testsUseOnlyItsModules(JavaClasses mainClasses) {
        ArchitectureRules.checkTestsUseOnlyItsModules(Module.CLI);
    }
}
