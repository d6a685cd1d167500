//! The cluster path under a real scheduler: a one-node Slurm cluster of the test's own (MUNGE
//! and Slurm with their key, sockets, ports, configuration and state in a temporary folder, no
//! file of the system touched, the daemons stopped by their PIDs at the end) runs the
//! repository's array job file, `tools/match/championship.slurm`, made short by the parameters
//! the file itself takes (two native profiles at a small depth instead of the championship).
//! `kempelen ratings` over the slices must print the crosstable the same tournament prints
//! played whole. SKIPPED, with the reason, where the tools are missing or the cluster cannot
//! start (tools/test.sh installs slurm-wlm and munge on Debian).
//!
//! The Kubernetes Job file beside it, `tools/match/championship-job.yaml`, is checked as far as
//! it can be without a cluster: validated against the Job schema (batch/v1) by
//! `kubernetes-validate`, and compared with the Slurm file's tournament. It has not run on a
//! Kubernetes cluster.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{json, standings_of};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The short tournament the test submits: the players, their limit, games per pairing, slices.
const PLAYERS: &str = "reference micromax tartan";
const LIMIT: &str = "--depth 2 --max-plies 60";
const GAMES: usize = 2;
const SLICES: usize = 3;

/// How long a daemon, the node or the job may take before the test calls it hung (guards,
/// never measures: a busy host is slower).
const START_GUARD: Duration = Duration::from_secs(120);
const JOB_GUARD: Duration = Duration::from_secs(900);

/// Where a program is on PATH (with /usr/sbin, where Debian puts the daemons).
fn which(tool: &str) -> Option<PathBuf> {
    let path = std::env::var("PATH").unwrap_or_default();
    path.split(':')
        .chain(["/usr/sbin", "/sbin"])
        .map(|d| Path::new(d).join(tool))
        .find(|p| p.is_file())
}

/// A free TCP port on this host (bound, then released for the daemon to take).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The cluster's folder and daemons; dropping it stops every daemon by the PID it wrote.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for pid_file in ["slurmd.pid", "slurmctld.pid", "munged.pid"] {
            let Ok(pid) = std::fs::read_to_string(self.dir.join(pid_file)) else {
                continue;
            };
            let pid = pid.trim();
            if pid.chars().all(|c| c.is_ascii_digit()) && !pid.is_empty() {
                let _ = Command::new("kill").arg(pid).status();
                // Gone before the folder is: wait (a guard) until the process has ended.
                let end = Instant::now() + Duration::from_secs(30);
                while Path::new(&format!("/proc/{pid}")).exists() && Instant::now() < end {
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
        }
    }
}

impl Cluster {
    /// Starts MUNGE, slurmctld and slurmd in `dir`; an error says what did not start (with
    /// the daemon's log).
    fn start(dir: &Path) -> Result<Cluster, String> {
        std::fs::create_dir_all(dir.join("state")).map_err(|e| e.to_string())?;
        std::fs::create_dir_all(dir.join("spool")).map_err(|e| e.to_string())?;
        let cluster = Cluster {
            dir: dir.to_path_buf(),
            conf: dir.join("slurm.conf"),
        };
        cluster.start_munge()?;
        std::fs::write(&cluster.conf, cluster.config()?).map_err(|e| e.to_string())?;
        for daemon in ["slurmctld", "slurmd"] {
            let out = Command::new(which(daemon).unwrap())
                .arg("-f")
                .arg(&cluster.conf)
                .env("SLURM_CONF", &cluster.conf)
                .output()
                .map_err(|e| format!("{daemon}: {e}"))?;
            if !out.status.success() {
                return Err(format!(
                    "{daemon} did not start: {}{}",
                    String::from_utf8_lossy(&out.stderr),
                    cluster.log(daemon)
                ));
            }
        }
        cluster.wait_for_the_node()?;
        Ok(cluster)
    }

    fn start_munge(&self) -> Result<(), String> {
        let key = self.dir.join("munge.key");
        let mut bytes = vec![0u8; 1024];
        use std::io::Read;
        std::fs::File::open("/dev/urandom")
            .and_then(|mut f| f.read_exact(&mut bytes))
            .map_err(|e| format!("no random bytes for the MUNGE key: {e}"))?;
        std::fs::write(&key, &bytes).map_err(|e| e.to_string())?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o400))
            .map_err(|e| e.to_string())?;
        let d = &self.dir;
        let out = Command::new(which("munged").unwrap())
            .arg("--force")
            .arg(format!("--key-file={}", key.display()))
            .arg(format!("--socket={}", d.join("munge.sock").display()))
            .arg(format!("--pid-file={}", d.join("munged.pid").display()))
            .arg(format!("--log-file={}", d.join("munged.log").display()))
            .arg(format!("--seed-file={}", d.join("munged.seed").display()))
            .output()
            .map_err(|e| format!("munged: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "munged did not start: {}",
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    }

    /// The cluster's slurm.conf: this host as its one node, every file in the folder.
    fn config(&self) -> Result<String, String> {
        let host = Command::new("hostname")
            .arg("-s")
            .output()
            .map_err(|e| format!("hostname -s: {e}"))?;
        let host = String::from_utf8_lossy(&host.stdout).trim().to_string();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        let total_kb: u64 = meminfo
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(4 << 20);
        let memory_mb = total_kb / 1024 * 3 / 4;
        let d = self.dir.display();
        Ok(format!(
            "ClusterName=kempelen-test\nSlurmctldHost={host}\nSlurmUser=root\nSlurmdUser=root\n\
             AuthType=auth/munge\nAuthInfo=socket={d}/munge.sock\nCredType=cred/munge\n\
             StateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\n\
             SlurmctldPort={}\nSlurmdPort={}\nProctrackType=proctrack/linuxproc\n\
             TaskPlugin=task/none\nSelectType=select/cons_tres\n\
             SelectTypeParameters=CR_Core_Memory\nReturnToService=2\nMpiDefault=none\n\
             JobAcctGatherType=jobacct_gather/none\n\
             NodeName={host} CPUs={cpus} RealMemory={memory_mb} State=UNKNOWN\n\
             PartitionName=main Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
            free_port(),
            free_port(),
        ))
    }

    fn log(&self, daemon: &str) -> String {
        let text =
            std::fs::read_to_string(self.dir.join(format!("{daemon}.log"))).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(15).collect();
        format!(
            "\n{daemon}.log ends:\n{}",
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        )
    }

    /// A Slurm command run against this cluster's configuration.
    fn command(&self, tool: &str) -> Command {
        let mut c = Command::new(which(tool).unwrap());
        c.env("SLURM_CONF", &self.conf);
        c
    }

    /// Waits until `sinfo` shows the node idle.
    fn wait_for_the_node(&self) -> Result<(), String> {
        let end = Instant::now() + START_GUARD;
        let mut last = String::new();
        while Instant::now() < end {
            if let Ok(out) = self.command("sinfo").args(["-h", "-o", "%t"]).output() {
                last = String::from_utf8_lossy(&out.stdout).trim().to_string()
                    + &String::from_utf8_lossy(&out.stderr);
                if last == "idle" {
                    return Ok(());
                }
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        Err(format!(
            "the node is not idle after {START_GUARD:?} (sinfo: {last:?}){}{}",
            self.log("slurmctld"),
            self.log("slurmd")
        ))
    }
}

/// The tools the test needs, or why it is skipped.
fn tools_missing() -> Option<String> {
    let missing: Vec<&str> = [
        "munged",
        "slurmctld",
        "slurmd",
        "sbatch",
        "sinfo",
        "hostname",
    ]
    .into_iter()
    .filter(|t| which(t).is_none())
    .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "{} not found (Debian: slurm-wlm, munge; tools/test.sh installs them)",
            missing.join(", ")
        )
    })
}

/// The folder of the `kempelen` binary the tests run, for the job's PATH.
fn kempelen_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_kempelen"))
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn the_array_job_file_runs_on_a_real_slurm_cluster_and_its_slices_give_the_whole_crosstable() {
    if let Some(why) = tools_missing() {
        eprintln!("SKIPPED: {why}");
        return;
    }
    let dir = common::scratch("slurm");
    let cluster = match Cluster::start(&dir) {
        Ok(c) => c,
        Err(why) => {
            eprintln!("SKIPPED: the one-node Slurm cluster could not start: {why}");
            return;
        }
    };
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let path = format!(
        "{}:{}",
        kempelen_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let job = Path::new(ROOT).join("tools/match/championship.slurm");
    let started = Instant::now();
    // sbatch --wait returns when every task has ended; coreutils' timeout is the guard against
    // a job that never runs (it ends sbatch and answers 124).
    let out = Command::new("timeout")
        .arg(JOB_GUARD.as_secs().to_string())
        .arg(which("sbatch").unwrap())
        .env("SLURM_CONF", &cluster.conf)
        .arg("--wait")
        .arg(format!("--array=1-{SLICES}"))
        .arg(format!("--chdir={ROOT}"))
        .arg(format!("--output={}/slice-%a.log", out_dir.display()))
        .arg("--mem=500M")
        .arg(&job)
        .env("PATH", &path)
        .env("KEMPELEN_PLAYERS", PLAYERS)
        .env("KEMPELEN_LIMIT", LIMIT)
        .env("KEMPELEN_GAMES", GAMES.to_string())
        .env("KEMPELEN_PGN", out_dir.join("slice"))
        .output()
        .expect("sbatch runs");
    let status = out.status;
    assert!(
        status.code() != Some(124),
        "the job did not end within {JOB_GUARD:?}{}",
        cluster.log("slurmd")
    );
    let logs: Vec<String> = (1..=SLICES)
        .map(|k| {
            std::fs::read_to_string(out_dir.join(format!("slice-{k}.log"))).unwrap_or_default()
        })
        .collect();
    assert!(
        status.success(),
        "sbatch --wait: {status}: {}{}\nthe tasks' logs:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        logs.join("\n---\n"),
        cluster.log("slurmd")
    );
    println!(
        "{}: {SLICES} tasks done in {:.1} s",
        String::from_utf8_lossy(&out.stdout).trim(),
        started.elapsed().as_secs_f64()
    );
    let slices: Vec<PathBuf> = (1..=SLICES)
        .map(|k| out_dir.join(format!("slice-{k}.pgn")))
        .collect();
    for (k, (file, log)) in slices.iter().zip(&logs).enumerate() {
        assert!(
            file.is_file(),
            "task {} wrote no {}: its log:\n{log}",
            k + 1,
            file.display()
        );
        assert!(
            log.contains(&format!("{}/{SLICES}", k + 1)),
            "task {}'s log names no slice {}/{SLICES}:\n{log}",
            k + 1,
            k + 1
        );
    }
    drop(cluster);

    // The slices joined, and the same tournament played whole on this host.
    let mut ratings = vec!["ratings", "--json"];
    ratings.extend(slices.iter().map(|f| common::arg(f)));
    let joined = json(&ratings);
    let whole_pgn = dir.join("whole.pgn");
    let games = GAMES.to_string();
    let whole_args: Vec<&str> = ["tournament"]
        .into_iter()
        .chain(common::words(PLAYERS))
        .chain(common::words(LIMIT))
        .chain([
            "--games",
            &games,
            "--json",
            "--pgn",
            common::arg(&whole_pgn),
        ])
        .collect();
    let whole = json(&whole_args);
    let pairings = 3; // three players, a round robin
    assert_eq!(whole["games"].as_array().unwrap().len(), pairings * GAMES);
    assert_eq!(standings_of(&joined), standings_of(&whole));
    // The text reports too: the crosstable `ratings` prints is the tournament's.
    let mut text_args = vec!["ratings"];
    text_args.extend(slices.iter().map(|f| common::arg(f)));
    let (text, _) = common::succeeds(&text_args);
    let (whole_text, _) = common::succeeds(&["ratings", common::arg(&whole_pgn)]);
    let table = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(
        table(&text),
        table(&whole_text),
        "ratings of the slices:\n{text}\nof the whole:\n{whole_text}"
    );
}

/// The Kubernetes Job file, without a cluster: validated against the Job schema of the
/// Kubernetes API (batch/v1, strict: no field the schema does not have) by
/// `kubernetes-validate`, which carries the schemas (PyPI; tools/test.sh installs it), and
/// its pods play the Slurm file's tournament in as many slices as the Job has completions.
#[test]
fn the_kubernetes_job_file_is_a_valid_indexed_job_of_the_same_tournament() {
    let file = Path::new(ROOT).join("tools/match/championship-job.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    // The same tournament as the Slurm file, sliced by the Job's completion index.
    let value = |key: &str| -> String {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(key))
            .unwrap_or_else(|| panic!("no {key}"));
        line.split(':')
            .nth(1)
            .unwrap()
            .split('#')
            .next()
            .unwrap()
            .trim()
            .trim_matches('"')
            .to_string()
    };
    assert_eq!(value("completionMode:"), "Indexed");
    let completions = value("completions:");
    let shards = text
        .lines()
        .skip_while(|l| !l.contains("name: SHARDS"))
        .nth(1)
        .and_then(|l| l.trim().strip_prefix("value:"))
        .map(|v| v.trim().trim_matches('"').to_string());
    assert_eq!(shards, Some(completions), "SHARDS is the Job's completions");
    let slurm =
        std::fs::read_to_string(Path::new(ROOT).join("tools/match/championship.slurm")).unwrap();
    for (in_job, in_slurm) in [
        ("z80=z80:Machine=jupiter-3", "z80=z80:Machine=jupiter-3"),
        (
            "sargon=program:adaptors/sargon-jupiter3.toml",
            "sargon=program:adaptors/sargon-jupiter3.toml",
        ),
        ("--clock emulated", "--clock emulated"),
        ("--tc 40/7200", "--tc 40/7200"),
        ("--move-timeout 600", "--move-timeout 600"),
        ("--games 20", "KEMPELEN_GAMES:-20"),
        (
            "K=$((JOB_COMPLETION_INDEX + 1))",
            "K=$((SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN + 1))",
        ),
        ("--shard \"$K/$SHARDS\"", "--shard \"$K/$N\""),
    ] {
        let job: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(job.contains(in_job), "the Job's command lacks {in_job}");
        assert!(slurm.contains(in_slurm), "the Slurm file lacks {in_slurm}");
    }
    let Some(tool) = which("kubernetes-validate") else {
        eprintln!(
            "SKIPPED: kubernetes-validate not found (PyPI: kubernetes-validate; tools/test.sh installs it): the Job file was not checked against the schema"
        );
        return;
    };
    let out = Command::new(tool)
        .arg("--strict")
        .arg(&file)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && said.contains("passed"),
        "kubernetes-validate --strict: {said}"
    );
    println!("{}", said.trim());
    // The schema check fails a Job it does not allow (a negative control: the check can fail).
    let bad = common::scratch("k8s").join("bad-job.yaml");
    std::fs::write(&bad, text.replace("completions: 4", "completions: four")).unwrap();
    let out = Command::new(which("kubernetes-validate").unwrap())
        .arg("--strict")
        .arg(&bad)
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "kubernetes-validate took completions: four"
    );
}
