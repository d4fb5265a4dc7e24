import ArgumentParser
import OKitEngine
import OKitLua

OKitRun.main()
